import { Injectable } from '@nestjs/common';
import { boundedRead, PlatformMetrics } from '@platform/observability';
import { DataSource } from 'typeorm';

/**
 * Subscription-item cancellations not confirmed by the billing provider yet
 * (the outbox's open rows), and the age of the oldest: a backlog that grows,
 * or an age past a few retry periods, means billing goes on for removed
 * connections. One statement on the partial index of open rows.
 */
const READ_BACKLOG = `
  SELECT count(*)::int AS backlog,
         COALESCE(EXTRACT(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
    FROM billing_cancellations
   WHERE completed_at IS NULL`;

/** `platform_billing_cancellation_backlog` and `platform_billing_cancellation_oldest_age_seconds`, read at scrape time. */
@Injectable()
export class BillingCancellationMetrics {
  // Registered once, at construction: a hybrid app (core-tenants) runs onModuleInit hooks again when its transport listener starts.
  constructor(metrics: PlatformMetrics, dataSource: DataSource) {
    const read = boundedRead(async () => {
      const [row]: { backlog: number; oldest_seconds: number }[] = await dataSource.query(READ_BACKLOG);
      return row;
    });
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
      read: async () => [{ labels: {}, value: (await read()).oldest_seconds }],
    });
  }
}
