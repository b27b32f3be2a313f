import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/app-foundation';
import { AuditEventsRepository } from '@platform/audit';

export const AUDIT_RETENTION_DAYS = Symbol('AUDIT_RETENTION_DAYS');

/** How often a replica sweeps, and how many rows one DELETE removes at most. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Deletes audit events older than AUDIT_RETENTION_DAYS, hourly, in bounded
 * batches. Every replica sweeps; two sweeps at once only delete the same old
 * rows, so no leader is needed. A failed sweep is retried at the next hour:
 * late deletion of expired rows is the only effect.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditRetention.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
    @Inject(AUDIT_RETENTION_DAYS) private readonly retentionDays: number,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepQuietly(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** Deletes every expired event; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
    let deleted = 0;
    for (;;) {
      const batch = await this.events.deleteOlderThan(cutoff, BATCH);
      deleted += batch;
      if (batch < BATCH) return deleted;
    }
  }

  private async sweepQuietly(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = this.sweep();
    try {
      const deleted = await this.sweeping;
      if (deleted > 0) this.logger.log({ deleted, retentionDays: this.retentionDays }, 'expired audit events deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'audit retention sweep failed; retried in an hour');
    } finally {
      this.sweeping = undefined;
    }
  }
}
