import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { AuthCacheSettings } from './auth-cache-settings';

/** What a message names: one tenant and one subject (`operator:<id>`, `plugin:<id>`). */
export interface ForgottenStanding {
  tenantID: string;
  subject: string;
}

const MESSAGE = /^([0-9a-f-]{36}) ((?:operator|plugin):[0-9a-f-]{36})$/;

/**
 * Tells every replica that a standing changed (a member removed, a role
 * changed), so each drops its in-process copy at once rather than when it
 * expires.
 *
 * Each replica listens on a Redis connection of its own. The in-process
 * copies may only be trusted while that connection is subscribed: while it
 * is down (and until it has subscribed again) a replica could miss a message,
 * so `listening` is false and TenantAccessService reads Redis or PostgreSQL
 * on every request; on every (re)subscription the in-process copies are
 * dropped, since messages sent meanwhile were lost.
 *
 * Messages are not signed: all a message can do is drop an entry, so a
 * forged one costs one Redis read, never grants or refuses anything.
 */
@Injectable()
export class StandingInvalidations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StandingInvalidations.name);
  private subscriber: Redis | undefined;
  private subscribed = false;
  private readonly forgetHandlers: ((standing: ForgottenStanding) => void)[] = [];
  private readonly resetHandlers: (() => void)[] = [];

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly settings: AuthCacheSettings,
  ) {}

  /** True while this replica is subscribed, so that no message since its last reset can have been missed. */
  get listening(): boolean {
    return this.subscribed;
  }

  /** `forget` runs for each message; `reset` whenever messages may have been missed (every copy must go). */
  onChange(forget: (standing: ForgottenStanding) => void, reset: () => void): void {
    this.forgetHandlers.push(forget);
    this.resetHandlers.push(reset);
  }

  onModuleInit(): void {
    // An app that also runs a transport server (core-tenants) initialises its modules twice: one listener per process.
    if (this.subscriber) return;
    const subscriber = this.redis.duplicate({ connectionName: `${this.redis.options.connectionName ?? 'platform'}:standings` });
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

  /** Tells every replica (this one included) to drop its copy of a standing. Throws when Redis fails. */
  async publish(standing: ForgottenStanding): Promise<void> {
    await this.redis.publish(this.settings.invalidationChannel, `${standing.tenantID} ${standing.subject}`);
  }

  private async subscribe(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.settings.invalidationChannel);
      // Whatever was kept before this subscription may have missed a message.
      this.reset();
      this.subscribed = true;
    } catch (error) {
      this.logger.warn({ err: error }, 'standing invalidations not subscribed; reading standings from Redis and PostgreSQL');
      this.stopTrusting();
    }
  }

  private received(message: string): void {
    const parsed = MESSAGE.exec(message);
    // Not ours, or garbled: drop everything rather than guess which entry it meant.
    if (!parsed) return this.reset();
    for (const handler of this.forgetHandlers) handler({ tenantID: parsed[1], subject: parsed[2] });
  }

  private stopTrusting(): void {
    this.subscribed = false;
    this.reset();
  }

  private reset(): void {
    for (const handler of this.resetHandlers) handler();
  }
}
