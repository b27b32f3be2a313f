import { Inject, Injectable } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';

/** docs/sign-up.md, Limits: codes are valid 10 minutes; one request per address per minute. */
export const CODE_VALIDITY_MS = 10 * 60_000;
export const RESEND_INTERVAL_MS = 60_000;
/** The per-address limit's name in `platform_rate_limit_refusals_total`. */
export const ADDRESS_LIMIT = 'email-verification:address';
/** Wrong codes an address may present before its code is burnt. */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * One Redis hash per normalised address: the current request's nonce, the
 * keyed hash of its code, when the code expires, when the address may ask
 * again, and the wrong tries so far. Times are the injected clock's (ms), so
 * the rules follow it; the key's own TTL only bounds how long Redis keeps it.
 */
export const verificationKey = (address: string) => `signup:v1:verification:${address}`;
/** Set while mail deliveries fail (see SignUpMailSender); shared by replicas. */
const DELIVERY_FAILING_KEY = 'signup:v1:delivery-failing';
const DELIVERY_FAILING_TTL_SECONDS = 300;
/** Covers the longest-lived field (the code) plus clock skew between replicas. */
const KEY_TTL_MS = CODE_VALIDITY_MS + 60_000;

/**
 * Atomically: refuse while the address's per-minute window is open, else
 * replace the entry with the new code. Returns the replaced entry so a
 * caller that fails afterwards can put it back (nothing half-written).
 */
const ISSUE = `
local resendAfter = tonumber(redis.call('HGET', KEYS[1], 'resendAfter') or '0')
if resendAfter > tonumber(ARGV[1]) then return {0, tostring(resendAfter)} end
local previous = redis.call('HGETALL', KEYS[1])
local pttl = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'nonce', ARGV[2], 'codeHash', ARGV[3], 'expiresAt', ARGV[4], 'resendAfter', ARGV[5], 'attempts', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {1, tostring(pttl), previous}
`;

/** Puts back the entry an issue replaced, unless a later request replaced it meanwhile. */
const RESTORE = `
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if #ARGV > 2 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 3))
  if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 1
`;

/** After a failed delivery: the address may ask again at once (only for the request that failed). */
const LIFT_RESEND_LIMIT = `
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'resendAfter', '0')
return 1
`;

/**
 * Checks a presented code: used once on success, burnt when expired or after
 * too many wrong tries. ARGV[3..] are the code's hashes under every key of
 * SIGN_UP_SECRET's set (one outside a rotation); matching any is one right try.
 */
const VERIFY = `
local entry = redis.call('HMGET', KEYS[1], 'codeHash', 'expiresAt', 'attempts')
if not entry[1] then return 'none' end
local function burn() redis.call('HDEL', KEYS[1], 'codeHash', 'expiresAt', 'attempts') end
if tonumber(entry[2]) <= tonumber(ARGV[1]) then burn() return 'expired' end
for i = 3, #ARGV do
  if entry[1] == ARGV[i] then burn() return 'ok' end
end
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if attempts >= tonumber(ARGV[2]) then burn() return 'burnt' end
return 'wrong'
`;

export type IssueOutcome =
  | { issued: true; previous: { fields: string[]; pttl: number } }
  | { issued: false; retryAfterMs: number };

export type VerifyOutcome = 'ok' | 'wrong' | 'expired' | 'burnt' | 'none';

/** The verification codes and per-address limits, in Redis (shared by every replica). Errors propagate: callers decide. */
@Injectable()
export class VerificationStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly metrics: PlatformMetrics,
  ) {}

  async issue(address: string, request: { nonce: string; codeHash: string; now: number }): Promise<IssueOutcome> {
    const reply = (await this.redis.eval(
      ISSUE,
      1,
      verificationKey(address),
      request.now,
      request.nonce,
      request.codeHash,
      request.now + CODE_VALIDITY_MS,
      request.now + RESEND_INTERVAL_MS,
      KEY_TTL_MS,
    )) as [number, string, string[]?];
    if (reply[0] === 0) {
      this.metrics.refused(ADDRESS_LIMIT);
      return { issued: false, retryAfterMs: Number(reply[1]) - request.now };
    }
    return { issued: true, previous: { pttl: Number(reply[1]), fields: reply[2] ?? [] } };
  }

  async restore(address: string, nonce: string, previous: { fields: string[]; pttl: number }): Promise<void> {
    await this.redis.eval(RESTORE, 1, verificationKey(address), nonce, previous.pttl, ...previous.fields);
  }

  async liftResendLimit(address: string, nonce: string): Promise<void> {
    await this.redis.eval(LIFT_RESEND_LIMIT, 1, verificationKey(address), nonce);
  }

  /** Records that a delivery just failed; forgotten after a success or five quiet minutes. */
  async markDeliveryFailing(): Promise<void> {
    await this.redis.set(DELIVERY_FAILING_KEY, '1', 'EX', DELIVERY_FAILING_TTL_SECONDS);
  }

  async clearDeliveryFailing(): Promise<void> {
    await this.redis.del(DELIVERY_FAILING_KEY);
  }

  async isDeliveryFailing(): Promise<boolean> {
    return (await this.redis.exists(DELIVERY_FAILING_KEY)) === 1;
  }

  /** Whether `nonce` is still the address's latest request (a later one supersedes its code and its mail). */
  async isCurrent(address: string, nonce: string): Promise<boolean> {
    return (await this.redis.hget(verificationKey(address), 'nonce')) === nonce;
  }

  /** `codeHashes`: the presented code's hash under each key of the set (SignUpKeys.codeHashes). */
  async verify(address: string, codeHashes: readonly string[], now: number): Promise<VerifyOutcome> {
    return (await this.redis.eval(VERIFY, 1, verificationKey(address), now, MAX_CODE_ATTEMPTS, ...codeHashes)) as VerifyOutcome;
  }
}
