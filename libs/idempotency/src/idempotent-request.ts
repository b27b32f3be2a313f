import { AppException } from '@platform/errors';
import { ExistingKey, IdempotencyKeyStore, KeyScope, StoredAnswer } from './idempotency-key-store';

export interface IdempotencySettings {
  /** How long a key and its answer are kept (IDEMPOTENCY_KEY_RETENTION_SECONDS). */
  retentionSeconds: number;
  /** How long an execution holds its key before another request may take it over (IDEMPOTENCY_LEASE_SECONDS). */
  leaseSeconds: number;
}

/** What a request that finds its key already there gets. */
export type Verdict = 'claim-again' | 'replay' | 'reused' | 'in-progress';

/**
 * The rule for a key already there: other parameters are refused whatever the
 * key's state; the same parameters get the kept answer, or wait while the
 * first execution still holds the key. A key past its retention, or an
 * execution whose lease lapsed (its process died), is claimed again.
 */
export function verdictOn(existing: ExistingKey | undefined, fingerprint: string, now: Date): Verdict {
  if (!existing || existing.expiresAt <= now) return 'claim-again';
  if (existing.fingerprint !== fingerprint) return 'reused';
  if (existing.state === 'completed') return 'replay';
  return existing.leaseExpiresAt <= now ? 'claim-again' : 'in-progress';
}

/**
 * Answers kept for replay: successes and the client errors that sending the
 * same request again would get again. A 408 or 429 depends on the moment and
 * a 5xx on the platform's health, so their claim is released instead and the
 * client may send the request again.
 */
export function isKeptAnswer(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** Thrown out of the handler when the key already has an answer: the interceptor sends it instead. */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
  }
}

/** Seconds a client is told to wait while the first request under its key runs. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/** A key deleted or taken over between two statements is looked at again this many times. */
const CLAIM_ATTEMPTS = 3;

/**
 * One request under an idempotency key, from its claim to its answer:
 * waiting (no claim yet) -> owned (it holds the key and acts) -> settled
 * (its answer kept, or its claim released). A claim that finds the key taken
 * ends the request instead: with the kept answer (IdempotentReplay), 422 1980
 * or 409 1981.
 */
export class IdempotentRequest {
  private state: 'waiting' | 'owned' | 'settled' | 'refused' = 'waiting';
  private leaseToken: string | undefined;

  constructor(
    private readonly store: IdempotencyKeyStore,
    readonly scope: KeyScope,
    private readonly fingerprint: string,
    private readonly settings: IdempotencySettings,
    private readonly now: () => Date,
    private readonly newLeaseToken: () => string,
  ) {}

  /** Whether this request holds the key, i.e. its action may run. */
  get owned(): boolean {
    return this.state === 'owned';
  }

  /** Whether the claim was ever made (the route reached its access check). */
  get claimed(): boolean {
    return this.state !== 'waiting';
  }

  /** Claims the key right before the action; throws when the action must not run. */
  async claim(): Promise<void> {
    if (this.state !== 'waiting') throw new Error(`idempotency key claimed twice (state ${this.state})`);
    this.state = 'refused';
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      const now = this.now();
      const leaseToken = this.newLeaseToken();
      const claimed = await this.store.claim(this.scope, {
        fingerprint: this.fingerprint,
        leaseToken,
        now,
        leaseUntil: new Date(now.getTime() + this.settings.leaseSeconds * 1000),
        expiresAt: new Date(now.getTime() + this.settings.retentionSeconds * 1000),
      });
      if (claimed) {
        this.state = 'owned';
        this.leaseToken = leaseToken;
        return;
      }
      const existing = await this.store.find(this.scope);
      switch (verdictOn(existing, this.fingerprint, now)) {
        case 'reused':
          throw new AppException('IdempotencyKeyReused');
        case 'in-progress':
          throw new AppException('IdempotencyRequestInProgress', { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS });
        case 'replay':
          throw new IdempotentReplay((existing as Extract<ExistingKey, { state: 'completed' }>).answer);
        case 'claim-again':
          continue;
      }
    }
    // Other requests keep taking the key between the two statements: it is busy.
    throw new AppException('IdempotencyRequestInProgress', { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS });
  }

  /** The action answered: keep the answer for replay, or free the key (isKeptAnswer). */
  async settle(answer: StoredAnswer): Promise<void> {
    if (this.state !== 'owned' || !this.leaseToken) return;
    this.state = 'settled';
    if (isKeptAnswer(answer.status)) await this.store.complete(this.scope, this.leaseToken, answer);
    else await this.store.release(this.scope, this.leaseToken);
  }
}
