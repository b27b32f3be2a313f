import type { PlatformMetrics } from '@platform/observability';
import type Redis from 'ioredis';
import type { FixedWindowCounters } from './fixed-window-counters';

export interface RateLimitRule {
  /** Names the counter, e.g. `sign-in:address`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

/**
 * The small, security-relevant limits (sign-in per address and per client,
 * sign-up and email verification per address): one counter per rule and
 * subject, charged on the platform's one fixed-window counter
 * (`FixedWindowCounters`), so concurrent requests on several replicas never
 * overshoot a limit. Refusals are counted by rule name.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly counters: FixedWindowCounters,
    private readonly metrics: PlatformMetrics,
  ) {}

  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
    const [reading] = await this.counters.charge([{ key: this.key(rule, subject), limit: rule.limit, windowSeconds: rule.windowSeconds }]);
    if (!reading.allowed) this.metrics.refused(rule.name);
    return { allowed: reading.allowed, retryAfterSeconds: wholeSecondsOf(reading.resetMs) };
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.redis.del(this.key(rule, subject));
  }

  private key(rule: RateLimitRule, subject: string): string {
    return `ratelimit:v1:${rule.name}:${subject}`;
  }
}

/**
 * The seconds these limits have always answered: what Redis's TTL says of
 * the same key (its milliseconds rounded to the nearest second), never below 0.
 */
function wholeSecondsOf(ms: number): number {
  return Math.max(Math.floor((ms + 500) / 1000), 0);
}
