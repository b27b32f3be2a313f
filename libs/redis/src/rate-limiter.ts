import type { PlatformMetrics } from '@platform/observability';
import type Redis from 'ioredis';

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
 * Counts one hit and sets the window's expiry in a single atomic step, so
 * concurrent requests on several replicas can never overshoot the limit.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
return {count, ttl}
`;

/** The hit script as an ioredis command (defineCommand): EVALSHA once the connection has run it. */
const HIT_COMMAND = 'platformRateLimitHit';

type HitCommand = (key: string, windowSeconds: number) => Promise<[number, number]>;

/**
 * Fixed-window rate limits kept in Redis, shared by every replica; refusals
 * are counted by rule name. The hit is sent as EVALSHA, as the request
 * budgets' charge is (quota-counters.ts): one command either way.
 */
export class RateLimiter {
  private readonly hitCommand: HitCommand;

  constructor(
    private readonly redis: Redis,
    private readonly metrics: PlatformMetrics,
  ) {
    redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
    // defineCommand adds the method at run time; ioredis's types cannot know its name.
    this.hitCommand = (redis as Redis & Record<typeof HIT_COMMAND, HitCommand>)[HIT_COMMAND].bind(redis);
  }

  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
    const [count, ttl] = await this.hitCommand(this.key(rule, subject), rule.windowSeconds);
    const allowed = count <= rule.limit;
    if (!allowed) this.metrics.refused(rule.name);
    return { allowed, retryAfterSeconds: Math.max(ttl, 0) };
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.redis.del(this.key(rule, subject));
  }

  private key(rule: RateLimitRule, subject: string): string {
    return `ratelimit:v1:${rule.name}:${subject}`;
  }
}
