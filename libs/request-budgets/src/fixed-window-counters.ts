import type Redis from 'ioredis';

/** One fixed-window counter to charge: its Redis key, its budget and its window. */
export interface WindowCounter {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** Where a counter stands after a charge. */
export interface WindowReading {
  /** Requests left in the window; 0 once refused. */
  remaining: number;
  /** Milliseconds until the window ends and the budget is whole again (Redis's PTTL of the counter). */
  resetMs: number;
  allowed: boolean;
}

/**
 * The one fixed-window counter of the platform: the request budgets
 * (`RequestQuotas`) and the small rate limits (`RateLimiter`: sign-in,
 * sign-up, email verification) both charge through it.
 *
 * Charges one request to each counter in order, in one round trip and
 * atomically (one script), so replicas never overshoot a budget. It stops at
 * the first counter that refuses: a principal over its own budget spends
 * nothing of its tenant's. A counter's window starts at its first request
 * (INCR, then PEXPIRE once); a counter found without expiry gets one, so no
 * key can limit for ever. One or two counters, written out rather than
 * looped over: the in-memory Redis-compatible server of the quick start runs
 * this script too, and its Lua does not index KEYS with a variable.
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

/** The charge script as an ioredis command (defineCommand): EVALSHA once the connection has run it. */
const CHARGE_COMMAND = 'platformChargeWindows';

type ChargeCommand = (numberOfKeys: number, ...keysAndArguments: (string | number)[]) => Promise<number[]>;

/**
 * Fixed-window counters kept in Redis, shared by every replica. Returns a
 * reading per counter charged: fewer than asked when one refused.
 *
 * Every authenticated request charges, so the charge is sent as EVALSHA: the
 * script's 500 bytes travel once per connection (ioredis sends EVAL the first
 * time, which loads it, and again whenever Redis answers NOSCRIPT, e.g. after a
 * failover or SCRIPT FLUSH), not with every request, and Redis does not hash
 * them again. One command per charge either way.
 */
export class FixedWindowCounters {
  private readonly chargeCommand: ChargeCommand;

  constructor(redis: Redis) {
    redis.defineCommand(CHARGE_COMMAND, { lua: CHARGE_SCRIPT });
    // defineCommand adds the method at run time; ioredis's types cannot know its name.
    const command = (redis as Redis & Record<typeof CHARGE_COMMAND, ChargeCommand>)[CHARGE_COMMAND];
    this.chargeCommand = command.bind(redis);
  }

  /** Charges one or two counters, in order. */
  async charge(counters: readonly WindowCounter[]): Promise<WindowReading[]> {
    if (counters.length < 1 || counters.length > 2) throw new RangeError(`charges one or two counters, not ${counters.length}`);
    const [first, second] = counters;
    const replies = second
      ? await this.chargeCommand(2, first.key, second.key, first.limit, first.windowSeconds * 1000, second.limit, second.windowSeconds * 1000)
      : await this.chargeCommand(1, first.key, first.limit, first.windowSeconds * 1000);
    const readings: WindowReading[] = [];
    for (let index = 0; index * 2 < replies.length; index += 1) {
      const count = Number(replies[index * 2]);
      const ttlMs = Number(replies[index * 2 + 1]);
      const { limit } = counters[index];
      readings.push({ remaining: Math.max(limit - count, 0), resetMs: ttlMs, allowed: count <= limit });
    }
    return readings;
  }
}
