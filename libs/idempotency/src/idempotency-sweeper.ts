import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/app-foundation';
import { IDEMPOTENCY_SETTINGS, IdempotencyModuleSettings } from './idempotency-settings';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** Rows deleted per statement; a sweep goes on while batches come back full. */
const SWEEP_BATCH = 1_000;

/**
 * Deletes the app's keys past their retention, every sweep interval, on every
 * replica (the deletes are idempotent and bounded). An expired key is also
 * taken over at once by the next request that uses it, so the sweep only
 * keeps the table small; it never decides whether a key is still valid.
 */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencySweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencyModuleSettings,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.settings.sweepIntervalSeconds * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One sweep (skipped while the previous one runs); resolves to the number of keys deleted. */
  sweep(): Promise<number> {
    this.sweeping ??= this.deleteExpired().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async deleteExpired(): Promise<number> {
    let deleted = 0;
    try {
      for (;;) {
        const count = await this.keys.deleteExpired(this.settings.app, this.clock.now(), SWEEP_BATCH);
        deleted += count;
        if (count < SWEEP_BATCH) return deleted;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'expired idempotency keys not swept; trying again next interval');
      return deleted;
    }
  }
}
