import { Inject, Injectable } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';

/** docs/helpdesk-domains.md, Throttle: one provider check per domain every 10 seconds. */
export const REFRESH_WINDOW_MS = 10_000;

export const refreshClaimKey = (domainID: string) => `helpdesk:v1:refresh:${domainID}`;

/**
 * Claims the domain's check slot in one atomic step: `SET NX PX` of the claim
 * time; if a claim exists, it is replaced only when the window has elapsed
 * since the stored claim time. The claim time comes from the app's Clock, so
 * tests decide "10 s later" exactly; the PX expiry (Redis's own clock) makes
 * sure no claim ever outlives the window in real time. Answers 0 when the slot
 * is taken, else the milliseconds left in the current window.
 */
const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', window) then return 0 end
local last = tonumber(redis.call('GET', KEYS[1]))
local elapsed = now - (last or 0)
if last == nil or elapsed >= window then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', window)
  return 0
end
return math.min(window, window - elapsed)
`;

/** Its name in `platform_rate_limit_refusals_total`. */
export const REFRESH_THROTTLE_LIMIT = 'helpdesk-domain-refresh';

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** The refresh throttle, in Redis so every replica shares it. */
@Injectable()
export class RefreshThrottle {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly metrics: PlatformMetrics,
  ) {}

  async claim(domainID: string, now: Date): Promise<ThrottleVerdict> {
    const left = Number(await this.redis.eval(CLAIM_SCRIPT, 1, refreshClaimKey(domainID), now.getTime(), REFRESH_WINDOW_MS));
    if (left <= 0) return { allowed: true };
    this.metrics.refused(REFRESH_THROTTLE_LIMIT);
    return { allowed: false, retryAfterMs: left };
  }

  /** Drops a removed domain's slot (its id is never reused, so this only tidies up). */
  async release(domainID: string): Promise<void> {
    await this.redis.del(refreshClaimKey(domainID));
  }
}
