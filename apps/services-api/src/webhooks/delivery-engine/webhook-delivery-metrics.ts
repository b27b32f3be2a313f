import { Injectable } from '@nestjs/common';
import { boundedRead, METRIC_PREFIX, PlatformMetrics } from '@platform/observability';
import { OUTBOX_CONSUMERS, OutboxConsumer } from '@platform/outbox';
import { Counter } from 'prom-client';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export type AttemptResult = 'succeeded' | 'retrying' | 'failed';

/**
 * Webhook delivery metrics (docs/metrics.md): attempts by what came of them,
 * counted as they end; pending deliveries and how long the oldest due one has
 * waited for a worker, read at scrape time in one statement; and outbox
 * events the retention sweep deleted before a consumer took them.
 */
@Injectable()
export class WebhookDeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly expiredUnconsumed: Counter<'consumer'>;

  constructor(metrics: PlatformMetrics, deliveries: WebhookDeliveriesRepository) {
    this.attempts = new Counter({
      name: `${METRIC_PREFIX}webhook_delivery_attempts_total`,
      help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt is scheduled), failed (failed, no attempt left).',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    for (const outcome of ['succeeded', 'retrying', 'failed'] satisfies AttemptResult[]) this.attempts.inc({ outcome }, 0);
    this.expiredUnconsumed = new Counter({
      name: `${METRIC_PREFIX}outbox_events_expired_unconsumed_total`,
      help: 'Outbox events the retention sweep deleted before a consumer took them, by consumer (webhooks: the dispatcher; realtime: the gateway relay).',
      labelNames: ['consumer'],
      registers: [metrics.registry],
    });
    for (const consumer of OUTBOX_CONSUMERS) this.expiredUnconsumed.inc({ consumer }, 0);
    const read = boundedRead(() => deliveries.pendingReading());
    metrics.addScrapeGauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries not yet succeeded nor failed (due, waiting for a retry, or held by a disabled endpoint).',
      labelNames: [],
      read: async () => [{ labels: {}, value: (await read()).pending }],
    });
    metrics.addScrapeGauge({
      name: 'webhook_deliveries_oldest_due_age_seconds',
      help: 'How long the oldest due webhook delivery of an enabled endpoint has waited for an attempt, in seconds (0 when none is due).',
      labelNames: [],
      read: async () => [{ labels: {}, value: (await read()).oldestDueSeconds }],
    });
  }

  attemptEnded(outcome: AttemptResult): void {
    this.attempts.inc({ outcome });
  }

  outboxEventsExpiredUnconsumed(consumer: OutboxConsumer, events: number): void {
    this.expiredUnconsumed.inc({ consumer }, events);
  }
}
