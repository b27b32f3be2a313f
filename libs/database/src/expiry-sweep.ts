/**
 * Deletes expired rows the way every retention sweep does: bounded batches
 * (so no statement holds many row locks), until a batch comes back short.
 * `deleteBatch(limit)` deletes at most `limit` rows and answers how many.
 */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, limit: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await deleteBatch(limit);
    deleted += count;
    if (count < limit) return deleted;
  }
}

/**
 * A sweep run on a timer on every replica (deletes of expired rows are
 * idempotent, so no leader is needed), never twice at once on one replica.
 * The timer does not keep the process alive; stop() waits for a sweep under way.
 */
export class PeriodicSweep<Result> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Result> | undefined;

  constructor(private readonly sweep: () => Promise<Result>) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.run().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** One sweep, or the one already under way. */
  run(): Promise<Result> {
    this.running ??= this.sweep().finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
