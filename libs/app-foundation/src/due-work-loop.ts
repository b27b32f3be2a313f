import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { detachedFromRequest } from '@platform/observability';

/**
 * The loop of a durable worker over rows in PostgreSQL (an outbox): rounds
 * every poll period and on a nudge, each round working through every due row
 * one claim at a time, so a stop never strands a claim. Rows survive
 * restarts; replicas share them through `FOR UPDATE SKIP LOCKED` claims with
 * a lease. A graceful stop waits for the attempt in flight to record its
 * outcome before the database pool closes.
 *
 * Shared by the apps' outboxes: core-tenants' billing cancellations and
 * install reconciliation, services-api's webhook dispatcher.
 */
export abstract class DueWorkLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loopLogger = new Logger(this.constructor.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  protected constructor(
    private readonly pollMs: number,
    private readonly description: string,
  ) {}

  /** One attempt at the most overdue row; false when nothing was due. */
  protected abstract attemptDue(): Promise<boolean>;

  onApplicationBootstrap(): void {
    this.plan(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Look now rather than at the next poll. The round runs outside the caller's request: each row carries its own. */
  nudge(): void {
    if (!this.running) detachedFromRequest(() => this.plan(0));
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.loopLogger.error({ err: error }, `${this.description} round failed`))
        .finally(() => {
          this.running = undefined;
          this.plan(this.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    let due = true;
    while (due && !this.stopped) due = await this.attemptDue();
  }
}
