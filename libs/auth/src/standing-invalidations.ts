import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connectionNameOf, duplicateConnection, REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { AuthCacheSettings } from './auth-cache-settings';
import { CacheSeal } from './cache-seal';

/** What a message names: one tenant and one subject (`operator:<id>`, `plugin:<id>`). */
export interface ForgottenStanding {
  tenantID: string;
  subject: string;
}

/** A message's sealed value: the tenant, the subject and when the change committed (ms). */
const MESSAGE = /^([0-9a-f-]{36}) ((?:operator|plugin):[0-9a-f-]{36}) (\d{1,15})$/;

/** How long a sealed message is accepted after it was sent: far longer than delivery takes. */
const MESSAGE_LIFETIME_MS = 60_000;

/**
 * Clocks of replicas are not exact: a copy sealed up to this long after a
 * change (by another replica's clock) is still taken for one from before it.
 * Refusing a fresh copy costs one PostgreSQL read.
 */
export const CLOCK_SKEW_MARGIN_MS = 1_000;

/**
 * How long a change is remembered: longer than any copy bound to it lives
 * (a standing is sealed for 5 s, a connection's credential entry for 60 s,
 * CredentialStore's CACHE_TTL_SECONDS; each refused past its expiry) plus the
 * margin, so no copy sealed before the change can still be accepted once it
 * is forgotten. Changes are rare (a member removed, a role changed, a
 * connection removed): a minute of them is a small map.
 */
const CHANGES_REMEMBERED_MS = 70_000;

/**
 * Tells every replica that a standing changed (a member removed, a role
 * changed), so each drops its in-process copy at once rather than when it
 * expires.
 *
 * Each replica listens on a Redis connection of its own. The in-process
 * copies, and the Redis copies, may only be trusted while that connection is
 * subscribed: while it is down (and until it has subscribed again) a replica
 * could miss a message, so `listening` is false and TenantAccessService reads
 * PostgreSQL on every request; on every (re)subscription the in-process
 * copies are dropped, since messages sent meanwhile were lost.
 *
 * A copy in Redis is only as good as the changes it saw: one sealed before
 * a change (a copy taken by whoever can write Redis, written back after a
 * demotion) still verifies until it lapses. So each message says when the
 * change committed, every replica remembers it a while, and a Redis copy
 * sealed before the last change of its standing, or before this replica
 * subscribed (it may have missed one), is a miss (`mayTrustCopy`).
 *
 * Messages are sealed like cache entries (CACHE_SECRET, bound to the
 * channel), so whoever can publish on Redis cannot tell replicas when a
 * change happened. A message that does not verify (forged, or from an app of
 * an earlier release during a rollout) drops every in-process copy and is
 * counted (`platform_cache_entries_refused_total{cache="standing-invalidation"}`).
 */
@Injectable()
export class StandingInvalidations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StandingInvalidations.name);
  private subscriber: Redis | undefined;
  private subscribed = false;
  private readonly forgetHandlers: ((standing: ForgottenStanding) => void)[] = [];
  private readonly resetHandlers: (() => void)[] = [];
  /** When this replica last (re)subscribed: a copy sealed before may have missed a change. */
  private subscribedAt = Infinity;
  /** When each standing (`<tenant> <subject>`) last changed, for CHANGES_REMEMBERED_MS. */
  private readonly changedAt = new Map<string, number>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly settings: AuthCacheSettings,
    private readonly seal: CacheSeal,
  ) {}

  /** True while this replica is subscribed, so that no message since its last reset can have been missed. */
  get listening(): boolean {
    return this.subscribed;
  }

  /**
   * Whether a Redis copy of `standing` sealed at `sealedAtMs` (the time its
   * PostgreSQL read began) may be used: only while listening, only when
   * sealed after this replica subscribed (a change before may have gone
   * unheard), and only when sealed more than the clock margin after the
   * standing's last change heard.
   */
  mayTrustCopy(standing: ForgottenStanding, sealedAtMs: number): boolean {
    if (!this.subscribed || sealedAtMs <= this.subscribedAt) return false;
    const changedAt = this.changedAt.get(`${standing.tenantID} ${standing.subject}`);
    return changedAt === undefined || sealedAtMs > changedAt + CLOCK_SKEW_MARGIN_MS;
  }

  /** `forget` runs for each message; `reset` whenever messages may have been missed (every copy must go). */
  onChange(forget: (standing: ForgottenStanding) => void, reset: () => void): void {
    this.forgetHandlers.push(forget);
    this.resetHandlers.push(reset);
  }

  onModuleInit(): void {
    // An app that also runs a transport server (core-tenants) initialises its modules twice: one listener per process.
    if (this.subscriber) return;
    // autoResubscribe off: this listener subscribes on every 'ready' itself, and ioredis's own resubscribe
    // sends SUBSCRIBE with nothing to catch its rejection when the connection drops again at once (no offline queue).
    const subscriber = duplicateConnection(this.redis, `${connectionNameOf(this.redis, 'platform')}:standings`, { autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('ready', () => void this.subscribe(subscriber));
    subscriber.on('close', () => this.stopTrusting());
    subscriber.on('end', () => this.stopTrusting());
    subscriber.on('error', (error: Error) => {
      if (this.subscribed) this.logger.warn({ err: error }, 'standing invalidations unavailable; reading standings from Redis and PostgreSQL');
      this.stopTrusting();
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.settings.invalidationChannel) this.received(message);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopTrusting();
    this.subscriber?.disconnect();
  }

  /**
   * Tells every replica (this one included) to drop its copy of a standing,
   * and that the change committed now (call it after the commit). Throws
   * when Redis fails.
   */
  async publish(standing: ForgottenStanding): Promise<void> {
    const changedAt = Date.now();
    const value = `${standing.tenantID} ${standing.subject} ${changedAt}`;
    await this.redis.publish(this.settings.invalidationChannel, this.seal.seal(this.settings.invalidationChannel, value, changedAt + MESSAGE_LIFETIME_MS));
  }

  private async subscribe(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.settings.invalidationChannel);
      // Whatever was kept before this subscription may have missed a message.
      this.reset();
      this.subscribedAt = Date.now();
      this.subscribed = true;
    } catch (error) {
      this.logger.warn({ err: error }, 'standing invalidations not subscribed; reading standings from Redis and PostgreSQL');
      this.stopTrusting();
    }
  }

  private received(message: string): void {
    const now = Date.now();
    const opened = this.seal.open('standing-invalidation', this.settings.invalidationChannel, message, now);
    const parsed = opened === undefined ? null : MESSAGE.exec(opened);
    // Not ours, forged or garbled: drop everything rather than guess which entry it meant (it can say no time).
    if (!parsed) return this.reset();
    this.remember(`${parsed[1]} ${parsed[2]}`, Number(parsed[3]), now);
    for (const handler of this.forgetHandlers) handler({ tenantID: parsed[1], subject: parsed[2] });
  }

  private remember(standing: string, changedAt: number, now: number): void {
    for (const [key, at] of this.changedAt) if (at < now - CHANGES_REMEMBERED_MS) this.changedAt.delete(key);
    this.changedAt.set(standing, Math.max(changedAt, this.changedAt.get(standing) ?? -Infinity));
  }

  private stopTrusting(): void {
    this.subscribed = false;
    this.subscribedAt = Infinity;
    this.reset();
  }

  private reset(): void {
    for (const handler of this.resetHandlers) handler();
  }
}
