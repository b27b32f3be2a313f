import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { deleteInBatches, PeriodicSweep } from '@platform/database';
import { HandledTransportRequests } from './handled-transport-requests.repository';

/** How often a replica sweeps, how long a record is kept, and how many rows one DELETE removes at most. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/**
 * A day: far beyond the age at which a message is refused as stale
 * (TRANSPORT_MAX_MESSAGE_AGE_MS, seconds) and the Redis claim (10 minutes),
 * so no message that could still be accepted outlives its record.
 */
export const HANDLED_TRANSPORT_REQUEST_RETENTION_MS = 24 * 60 * 60 * 1000;
const BATCH = 5_000;

/**
 * Deletes handled-request records past their retention, hourly, in bounded
 * batches, on every replica. A failed sweep is retried at the next hour:
 * late deletion is the only effect.
 */
@Injectable()
export class HandledTransportRequestsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HandledTransportRequestsRetention.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly handled: HandledTransportRequests,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(SWEEP_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes every record past its retention; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - HANDLED_TRANSPORT_REQUEST_RETENTION_MS);
    return deleteInBatches((limit) => this.handled.deleteOlderThan(cutoff, limit), BATCH);
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const deleted = await this.sweep();
      if (deleted > 0) this.logger.log({ deleted }, 'handled transport request records deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'handled transport request retention sweep failed; retried in an hour');
    }
  }
}
