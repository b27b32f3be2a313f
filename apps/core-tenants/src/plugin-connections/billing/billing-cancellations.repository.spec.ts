import { createTestDataSource } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BillingCancellationsRepository } from './billing-cancellations.repository';

/**
 * The cancellation outbox's SQL against PostgreSQL: the claim of the most
 * overdue open row as a camelCase row (the lease, rows another claim holds
 * skipped, completed ones never), each attempt's record, and the backlog the
 * metrics read.
 */
describe('BillingCancellationsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let cancellations: BillingCancellationsRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    cancellations = new BillingCancellationsRepository(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM billing_cancellations');
  });

  /** An open cancellation due `dueSecondsAgo` ago (negative: not due yet), as a removal records it; answers its id. */
  const recorded = async (item: string, options: { dueSecondsAgo?: number; createdSecondsAgo?: number; completed?: boolean; headers?: Record<string, string> } = {}) => {
    const [row] = (await dataSource.query(
      `INSERT INTO billing_cancellations (plugin_connection_id, subscription_item_id, headers, next_attempt_at, created_at, completed_at)
       VALUES ($1, $2, $3::jsonb, now() - make_interval(secs => $4), now() - make_interval(secs => $5), CASE WHEN $6::boolean THEN now() END)
       RETURNING id`,
      [randomUUID(), item, options.headers ? JSON.stringify(options.headers) : null, options.dueSecondsAgo ?? 1, options.createdSecondsAgo ?? 0, options.completed ?? false],
    )) as { id: string }[];
    return row.id;
  };
  const stateOf = async (id: string) =>
    ((await dataSource.query(
      `SELECT attempts, last_error AS "lastError", completed_at IS NOT NULL AS completed, next_attempt_at > now() AS leased FROM billing_cancellations WHERE id = $1`,
      [id],
    )) as object[])[0];

  it('claims the most overdue open cancellation as a camelCase row and leases it; not-due and completed ones are left', async () => {
    const overdue = await recorded('si_overdue', { dueSecondsAgo: 60, headers: { 'x-request-id': 'req-1' } });
    await recorded('si_due', { dueSecondsAgo: 10 });
    await recorded('si_later', { dueSecondsAgo: -60 });
    await recorded('si_done', { dueSecondsAgo: 600, completed: true });

    expect(await cancellations.claimDue(30)).toEqual({ id: overdue, subscriptionItemID: 'si_overdue', attempts: 0, headers: { 'x-request-id': 'req-1' } });
    expect(await stateOf(overdue)).toEqual({ attempts: 0, lastError: null, completed: false, leased: true });
    expect(await cancellations.claimDue(30)).toMatchObject({ subscriptionItemID: 'si_due' });
    expect(await cancellations.claimDue(30)).toBeUndefined();
  });

  it('skips a cancellation another claim holds until it commits', async () => {
    await recorded('si_first', { dueSecondsAgo: 60 });
    await recorded('si_second', { dueSecondsAgo: 30 });

    await dataSource.transaction(async (holder) => {
      const [held] = (await holder.query(
        `SELECT subscription_item_id AS item FROM billing_cancellations WHERE completed_at IS NULL ORDER BY next_attempt_at LIMIT 1 FOR UPDATE`,
      )) as { item: string }[];
      expect(held.item).toBe('si_first');
      expect(await cancellations.claimDue(30)).toMatchObject({ subscriptionItemID: 'si_second' });
    });
    expect(await cancellations.claimDue(30)).toMatchObject({ subscriptionItemID: 'si_first' });
  });

  it('records a confirmed cancellation as done and a failed attempt with its error and next time', async () => {
    const canceled = await recorded('si_canceled');
    const failing = await recorded('si_failing');

    await cancellations.recordCanceled(canceled);
    await cancellations.recordFailure(failing, 'provider answered 502', 120);
    await cancellations.recordFailure(failing, 'provider answered 503', 120);

    expect(await stateOf(canceled)).toEqual({ attempts: 1, lastError: null, completed: true, leased: false });
    expect(await stateOf(failing)).toEqual({ attempts: 2, lastError: 'provider answered 503', completed: false, leased: true });
    expect(await cancellations.claimDue(30)).toBeUndefined();
  });

  it('tells the backlog of open cancellations and the age of the oldest, 0 and 0 when there is none', async () => {
    expect(await cancellations.backlog()).toEqual({ backlog: 0, oldestSeconds: 0 });
    await recorded('si_old', { createdSecondsAgo: 3600 });
    await recorded('si_new', { createdSecondsAgo: 60 });
    await recorded('si_done', { createdSecondsAgo: 86_400, completed: true });

    const backlog = await cancellations.backlog();
    expect(backlog.backlog).toBe(2);
    // The age is read from PostgreSQL's clock: at least the hour the oldest open one was recorded before now.
    expect(backlog.oldestSeconds).toBeGreaterThanOrEqual(3600);
    expect(backlog.oldestSeconds).toBeLessThan(86_400);
  });
});
