import { AppException } from '@platform/errors';

export interface PasswordWorkLimits {
  /** Hashes computed at once in this process. */
  concurrency: number;
  /** Hashes waiting for a turn; one more is refused at once. */
  queue: number;
}

/** What a refused request is told: a turn frees within a fraction of a second. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Bounds password-hash work (bcrypt, about 0.1 s of CPU each) in a process:
 * `concurrency` hashes at once, `queue` more waiting, and anything past that
 * refused at once with 503 5903 and `Retry-After`, so a sign-in flood queues
 * nothing without end and the process keeps its turns for everything else it
 * serves (core-tenants: the transport and the JWKS).
 *
 * bcryptjs runs on the event loop in slices of up to 100 ms: with N hashes
 * under way another request waits at most about N × 100 ms for its turn, so
 * the bound is also the latency bound; and more hashes at once would not go
 * faster, the loop being one thread.
 *
 * Written here rather than taken from p-limit: p-limit is ESM-only and
 * queues without bound; refusing past a short queue is the point.
 */
export class PasswordWork {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: PasswordWorkLimits) {}

  /** Runs `work` when a turn is free; throws 503 5903 (with Retry-After) when all turns and the queue are taken. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.queue) throw new AppException('InternalServiceUnavailable', { retryAfterSeconds: RETRY_AFTER_SECONDS });
      await new Promise<void>((turn) => this.waiting.push(turn));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // The turn passes to the next waiter as is, so `running` never dips and lets a newcomer jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  /** Hashes under way and waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
