import { Injectable } from '@nestjs/common';
import { firstRow, run, sql } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';
import { DataSource } from 'typeorm';

/** A recorded cancellation whose next attempt is due, claimed for one attempt. */
export interface DueCancellation {
  id: string;
  subscriptionItemID: string;
  attempts: number;
  /** The request id and trace context of the removal that recorded it. */
  headers: PropagatedHeaders | null;
}

export interface CancellationBacklog {
  /** Cancellations not confirmed by the billing provider yet. */
  backlog: number;
  /** Age of the oldest of them, 0 when there is none. */
  oldestSeconds: number;
}

const CLAIM_DUE = sql<DueCancellation, [leaseSeconds: number]>(
  `UPDATE billing_cancellations SET next_attempt_at = now() + make_interval(secs => $1)
          WHERE id = (SELECT id FROM billing_cancellations
                       WHERE completed_at IS NULL AND next_attempt_at <= now()
                       ORDER BY next_attempt_at
                       LIMIT 1
                       FOR UPDATE SKIP LOCKED)
          RETURNING id, subscription_item_id AS "subscriptionItemID", attempts, headers`,
);

const RECORD_CANCELED = sql<never, [id: string]>(
  `UPDATE billing_cancellations SET completed_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`,
);

const RECORD_FAILURE = sql<never, [id: string, error: string, retryInSeconds: number]>(
  `UPDATE billing_cancellations
            SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + make_interval(secs => $3)
          WHERE id = $1`,
);

/** One statement on the partial index of open rows. */
const READ_BACKLOG = sql<CancellationBacklog, []>(`
  SELECT count(*)::int AS backlog,
         COALESCE(EXTRACT(epoch FROM now() - min(created_at)), 0)::float8 AS "oldestSeconds"
    FROM billing_cancellations
   WHERE completed_at IS NULL`);

/**
 * The outbox of subscription-item cancellations (billing_cancellations),
 * written by a connection's removal. Rows name no tenant: the worker acts on
 * every tenant's removals alike.
 */
@Injectable()
export class BillingCancellationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the most overdue cancellation for one attempt: it is not picked
   * again before the lease ends, and replicas skip rows another one locked.
   */
  async claimDue(leaseSeconds: number): Promise<DueCancellation | undefined> {
    return firstRow(this.dataSource, CLAIM_DUE, [leaseSeconds]);
  }

  async recordCanceled(id: string): Promise<void> {
    await run(this.dataSource, RECORD_CANCELED, [id]);
  }

  /** Counts the attempt and plans the next one. */
  async recordFailure(id: string, error: string, retryInSeconds: number): Promise<void> {
    await run(this.dataSource, RECORD_FAILURE, [id, error, retryInSeconds]);
  }

  async backlog(): Promise<CancellationBacklog> {
    const row = await firstRow(this.dataSource, READ_BACKLOG, []);
    return row ?? { backlog: 0, oldestSeconds: 0 };
  }
}
