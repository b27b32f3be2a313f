import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { deleteInBatches, PeriodicSweep } from '@platform/database';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from '../conversations-settings';
import { SessionsRepository } from '../sessions/sessions.repository';

/** How often a replica sweeps, and how many sessions one DELETE removes at most (each with its messages). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 200;
const DAY_MS = 86_400_000;

/**
 * Deletes sessions closed more than MESSAGE_RETENTION_DAYS ago, with their
 * messages, summaries and notifications (docs/conversations.md#growth),
 * hourly, in bounded batches, on every replica (deleting expired rows is
 * idempotent). Open sessions are never deleted, however old. 0 days: no
 * sweep. A failed sweep is retried at the next hour.
 */
@Injectable()
export class ConversationRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ConversationRetention.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    @Inject(CONVERSATIONS_SETTINGS) private readonly settings: ConversationsSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.retentionDays > 0) this.periodic.start(SWEEP_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes every expired closed session; returns how many. */
  async sweep(): Promise<number> {
    if (this.settings.retentionDays === 0) return 0;
    const cutoff = new Date(this.clock.now().getTime() - this.settings.retentionDays * DAY_MS);
    return deleteInBatches((limit) => this.sessions.deleteClosedBefore(cutoff, limit), BATCH);
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const deleted = await this.sweep();
      if (deleted > 0) this.logger.log({ deleted, retentionDays: this.settings.retentionDays }, 'expired closed sessions deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'conversation retention sweep failed; retried in an hour');
    }
  }
}
