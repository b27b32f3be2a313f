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

/**
 * Leases a block of a counter's window to one replica: takes `block` requests
 * of what is left of the limit (fewer when less is left, none once it is
 * spent) with INCRBY, so all leases together never exceed the limit, and
 * starts the window (PEXPIRE) when the key had none. Answers what it granted,
 * the count after it, and the window's milliseconds left.
 */
const LEASE_SCRIPT = `
local limit = tonumber(ARGV[1])
local block = tonumber(ARGV[2])
local count = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local granted = math.min(block, limit - count)
if granted > 0 then
  count = redis.call('INCRBY', KEYS[1], granted)
else
  granted = 0
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {granted, count, ttl}
`;

/**
 * Gives back what a replica leased and did not spend, only into the window it
 * was leased from: a window begun since (its key expired and was made again)
 * ends at least a whole window later than the one leased from, so a key whose
 * milliseconds left exceed the lessee's estimate by half a window or more is
 * another window, and keeps its count.
 */
const GIVE_BACK_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 or ttl >= tonumber(ARGV[2]) + tonumber(ARGV[3]) / 2 then return 0 end
local count = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local back = math.min(tonumber(ARGV[1]), count)
if back > 0 then redis.call('DECRBY', KEYS[1], back) end
return back
`;

/** What one lease took: `granted` requests of the window, the count after it, and the window's milliseconds left. */
export interface WindowLease {
  granted: number;
  count: number;
  resetMs: number;
}

/** The charge script as an ioredis command (defineCommand): EVALSHA once the connection has run it. */
const CHARGE_COMMAND = 'platformChargeWindows';

const LEASE_COMMAND = 'platformLeaseWindow';
const GIVE_BACK_COMMAND = 'platformGiveBackWindow';

type ChargeCommand = (numberOfKeys: number, ...keysAndArguments: (string | number)[]) => Promise<number[]>;
type LeaseCommand = (key: string, limit: number, block: number, windowMs: number) => Promise<[number, number, number]>;
type GiveBackCommand = (key: string, unspent: number, expectedResetMs: number, windowMs: number) => Promise<number>;
type Commands = Record<typeof CHARGE_COMMAND, ChargeCommand> & Record<typeof LEASE_COMMAND, LeaseCommand> & Record<typeof GIVE_BACK_COMMAND, GiveBackCommand>;

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
  private readonly leaseCommand: LeaseCommand;
  private readonly giveBackCommand: GiveBackCommand;

  constructor(redis: Redis) {
    redis.defineCommand(CHARGE_COMMAND, { lua: CHARGE_SCRIPT });
    redis.defineCommand(LEASE_COMMAND, { numberOfKeys: 1, lua: LEASE_SCRIPT });
    redis.defineCommand(GIVE_BACK_COMMAND, { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
    // defineCommand adds the methods at run time; ioredis's types cannot know their names.
    const commands = redis as Redis & Commands;
    this.chargeCommand = commands[CHARGE_COMMAND].bind(redis);
    this.leaseCommand = commands[LEASE_COMMAND].bind(redis);
    this.giveBackCommand = commands[GIVE_BACK_COMMAND].bind(redis);
  }

  /** Leases up to `block` requests of the counter's window (LEASE_SCRIPT). */
  async lease(counter: WindowCounter, block: number): Promise<WindowLease> {
    const [granted, count, resetMs] = await this.leaseCommand(counter.key, counter.limit, block, counter.windowSeconds * 1000);
    return { granted: Number(granted), count: Number(count), resetMs: Number(resetMs) };
  }

  /**
   * Gives `unspent` leased requests back to the window they were leased from,
   * which the lessee expects to end in `expectedResetMs` (GIVE_BACK_SCRIPT).
   * Answers how many went back.
   */
  async giveBack(counter: WindowCounter, unspent: number, expectedResetMs: number): Promise<number> {
    return Number(await this.giveBackCommand(counter.key, unspent, expectedResetMs, counter.windowSeconds * 1000));
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
