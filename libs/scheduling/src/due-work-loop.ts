import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { detachedFromRequest } from '@platform/observability';

/**
 * The loop of a durable worker over rows in PostgreSQL (an outbox): the rows
 * are the only record of what is due, so nothing is lost across restarts and
 * there is no second schedule (a job queue's) to keep in step with them.
 * Replicas share the rows through `FOR UPDATE SKIP LOCKED` claims with a
 * lease: a worker that dies mid-attempt leaves its row to be claimed again
 * once the lease lapses, by the same query that finds every other due row.
 *
 * A lane works through due rows one claim at a time (`attemptDue`) until none
 * is left. Up to `concurrency` lanes run at once: every poll period, and on a
 * nudge, one more lane starts if fewer run; a lane that found work calls
 * `moreDue()` to start another, so lanes grow only while rows are waiting and
 * an idle replica asks the database once per poll. A graceful stop waits for
 * the attempts in flight to record their outcomes before the database pool
 * closes.
 *
 * Shared by the apps' outboxes: core-tenants' billing cancellations and
 * install reconciliation, services-api's notification fan-out, notification
 * mails and presence reconciler, the real-time gateway's relay (one lane
 * each), services-api's routing (a few passes at once) and its webhook
 * deliveries (WEBHOOK_DELIVERY_CONCURRENCY lanes).
 */
export abstract class DueWorkLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loopLogger = new Logger(this.constructor.name);
  private readonly lanes = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Set by a nudge: a lane about to stop for want of work looks once more, since the nudge's rows may have committed after its last claim. */
  private lookAgain = false;

  protected constructor(
    private readonly pollMs: number,
    private readonly description: string,
    private readonly concurrency = 1,
  ) {}

  /** One attempt at the most overdue row; false when nothing was due. */
  protected abstract attemptDue(): Promise<boolean>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.startLane(), this.pollMs);
    this.timer.unref();
    setTimeout(() => this.startLane(), 0).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(this.lanes);
  }

  /** Look now rather than at the next poll. The lane runs outside the caller's request: each row carries its own. */
  nudge(): void {
    this.lookAgain = true;
    detachedFromRequest(() => this.startLane());
  }

  /** Called by `attemptDue` once it claimed a row: more may be due, so another lane starts if the bound allows. */
  protected moreDue(): void {
    this.startLane();
  }

  private startLane(): void {
    if (this.stopped || this.lanes.size >= this.concurrency) return;
    const lane: Promise<void> = this.drain()
      .catch((error: unknown) => this.loopLogger.error({ err: error }, `${this.description} round failed`))
      .finally(() => this.lanes.delete(lane));
    this.lanes.add(lane);
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      this.lookAgain = false;
      if (await this.attemptDue()) continue;
      if (!this.lookAgain) return;
    }
  }
}
