import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { deleteInBatches, PeriodicSweep } from '@platform/database';
import { IDEMPOTENCY_SETTINGS, IdempotencyModuleSettings } from './idempotency-settings';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** Rows deleted per statement; a sweep goes on while batches come back full. */
const SWEEP_BATCH = 1_000;

/**
 * Deletes the app's keys past their retention, every sweep interval, on every
 * replica. An expired key is also taken over at once by the next request that
 * uses it, so the sweep only keeps the table small; it never decides whether
 * a key is still valid.
 */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencySweeper.name);
  private readonly periodic = new PeriodicSweep(() => this.deleteExpired());

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencyModuleSettings,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(this.settings.sweepIntervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** One sweep (or the one under way); resolves to the number of keys deleted. */
  sweep(): Promise<number> {
    return this.periodic.run();
  }

  private async deleteExpired(): Promise<number> {
    const now = this.clock.now();
    let deleted = 0;
    try {
      return await deleteInBatches(async (limit) => {
        const count = await this.keys.deleteExpired(this.settings.app, now, limit);
        deleted += count;
        return count;
      }, SWEEP_BATCH);
    } catch (error) {
      this.logger.warn({ err: error }, 'expired idempotency keys not swept; trying again next interval');
      return deleted;
    }
  }
}
