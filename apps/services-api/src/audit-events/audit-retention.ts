import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { AuditEventsRepository } from '@platform/audit';
import { deleteInBatches, PeriodicSweep } from '@platform/database';

export const AUDIT_RETENTION_DAYS = Symbol('AUDIT_RETENTION_DAYS');

/** How often a replica sweeps, and how many rows one DELETE removes at most. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Deletes audit events older than AUDIT_RETENTION_DAYS, hourly, in bounded
 * batches, on every replica. A failed sweep is retried at the next hour:
 * late deletion of expired rows is the only effect.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditRetention.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
    @Inject(AUDIT_RETENTION_DAYS) private readonly retentionDays: number,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(SWEEP_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes every expired event; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
    return deleteInBatches((limit) => this.events.deleteOlderThan(cutoff, limit), BATCH);
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const deleted = await this.sweep();
      if (deleted > 0) this.logger.log({ deleted, retentionDays: this.retentionDays }, 'expired audit events deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'audit retention sweep failed; retried in an hour');
    }
  }
}
