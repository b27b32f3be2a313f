import { Injectable } from '@nestjs/common';
import { boundedRead, PlatformMetrics } from '@platform/observability';
import { BillingCancellationsRepository } from './billing-cancellations.repository';

/**
 * `platform_billing_cancellation_backlog` and `platform_billing_cancellation_oldest_age_seconds`,
 * read at scrape time: subscription-item cancellations not confirmed by the
 * billing provider yet (the outbox's open rows), and the age of the oldest.
 * A backlog that grows, or an age past a few retry periods, means billing
 * goes on for removed connections.
 */
@Injectable()
export class BillingCancellationMetrics {
  // Registered once, at construction: a hybrid app (core-tenants) runs onModuleInit hooks again when its transport listener starts.
  constructor(metrics: PlatformMetrics, cancellations: BillingCancellationsRepository) {
    const read = boundedRead(() => cancellations.backlog());
    metrics.addScrapeGauge({
      name: 'billing_cancellation_backlog',
      help: 'Subscription-item cancellations recorded but not yet confirmed by the billing provider.',
      labelNames: [],
      read: async () => [{ labels: {}, value: (await read()).backlog }],
    });
    metrics.addScrapeGauge({
      name: 'billing_cancellation_oldest_age_seconds',
      help: 'Age of the oldest unconfirmed subscription-item cancellation, in seconds (0 when there is none).',
      labelNames: [],
      read: async () => [{ labels: {}, value: (await read()).oldestSeconds }],
    });
  }
}
