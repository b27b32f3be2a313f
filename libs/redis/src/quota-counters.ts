import type Redis from 'ioredis';

/** One fixed-window counter to charge: its Redis key, its budget and its window. */
export interface QuotaCounter {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** Where a counter stands after a charge. */
export interface QuotaReading {
  /** Requests left in the window; 0 once refused. */
  remaining: number;
  /** Seconds until the window ends and the budget is whole again, at least 1. */
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Charges one request to each counter in order, in one round trip and
 * atomically (one script), so replicas never overshoot a budget. It stops at
 * the first counter that refuses: a principal over its own budget spends
 * nothing of its tenant's. A counter's window starts at its first request
 * (INCR, then PEXPIRE once); a counter found without expiry gets one, so no
 * key can limit for ever. One or two counters, written out rather than
 * looped over: the in-memory Redis-compatible server of the quick start runs
 * this script too (EVAL, not EVALSHA, which it does not keep), and its Lua
 * does not index KEYS with a variable.
 */
const CHARGE_SCRIPT = `
local function charge(key, windowMs)
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, windowMs) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, windowMs)
    ttl = tonumber(windowMs)
  end
  return count, ttl
end
local count1, ttl1 = charge(KEYS[1], ARGV[2])
if #KEYS == 1 or count1 > tonumber(ARGV[1]) then return {count1, ttl1} end
local count2, ttl2 = charge(KEYS[2], ARGV[4])
return {count1, ttl1, count2, ttl2}
`;

/** Only within the window: a DECR after it ended would leave a key with no expiry. */
const REFUND_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/**
 * Fixed-window request budgets kept in Redis, shared by every replica. Returns
 * a reading per counter charged: fewer than asked when one refused.
 */
export class QuotaCounters {
  constructor(private readonly redis: Redis) {}

  /** Charges one or two counters, in order. */
  async charge(counters: readonly QuotaCounter[]): Promise<QuotaReading[]> {
    if (counters.length < 1 || counters.length > 2) throw new RangeError(`charges one or two counters, not ${counters.length}`);
    const keys = counters.map((counter) => counter.key);
    const limits = counters.flatMap((counter) => [counter.limit, counter.windowSeconds * 1000]);
    const replies = (await this.redis.eval(CHARGE_SCRIPT, keys.length, ...keys, ...limits)) as number[];
    const readings: QuotaReading[] = [];
    for (let index = 0; index * 2 < replies.length; index += 1) {
      const count = Number(replies[index * 2]);
      const ttlMs = Number(replies[index * 2 + 1]);
      const { limit } = counters[index];
      readings.push({ remaining: Math.max(limit - count, 0), resetSeconds: Math.max(Math.ceil(ttlMs / 1000), 1), allowed: count <= limit });
    }
    return readings;
  }

  /** Gives back one request of a counter charged earlier (a request its tenant never let through). */
  async refund(key: string): Promise<void> {
    await this.redis.eval(REFUND_SCRIPT, 1, key);
  }
}
