import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { WebhookEventsRepository } from '@platform/webhooks';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The webhook outbox's SQL (libs/webhooks) against PostgreSQL: the append
 * and the camelCase rows the two claims hand on (the microsecond instant
 * included), the dispatcher's claim (oldest first, batched, rows another
 * claim holds skipped), the real-time relay's claim (one relay at a time),
 * and the sweep of events both have finished with. Here rather than beside
 * the repository: libs/testing builds on libs/webhooks, so the library's own
 * specs cannot use the test database (docs/testing.md).
 */
describe('WebhookEventsRepository', () => {
  const RELAY_LOCK = 'webhook-events.repository.spec';
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let events: WebhookEventsRepository;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    events = new WebhookEventsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM webhook_events');
  });

  /** An event that occurred at `at` (to the microsecond), as an app's append leaves it; answers its id. */
  const occurred = async (at: string, tenant = tenantID): Promise<string> => {
    const [row] = (await dataSource.query(
      `INSERT INTO webhook_events (tenant_id, type, version, ordering_key, data, occurred_at, emitted_by)
       VALUES ($1, 'conversation.message.created', 1, 'subject-1', '{}'::jsonb, $2, 'services-api') RETURNING id`,
      [tenant, at],
    )) as { id: string }[];
    return row.id;
  };
  const idsOf = (found: { id: string }[]) => found.map((event) => event.id);

  it('appends many events of one type with one statement, in the given order, each with its subject; none for an empty batch', async () => {
    const scope = trustedTenantScope(tenantID);
    const statements: string[] = [];
    await dataSource.transaction(async (runner) => {
      const counting = {
        query: (text: string, parameters?: unknown[]) => {
          statements.push(text);
          return runner.query(text, parameters);
        },
      };
      await events.appendMany(counting, scope, { type: 'notifications.counts', version: 1, emittedBy: 'services-api', headers: { 'x-request-id': 'req-2' }, events: [] });
      await events.appendMany(counting, scope, {
        type: 'notifications.counts',
        version: 1,
        emittedBy: 'services-api',
        headers: { 'x-request-id': 'req-2' },
        events: ['a', 'b', 'c'].map((operatorID) => ({ orderingKey: `operator:${operatorID}`, data: { operatorID, counts: { mention: 1 } } })),
      });
    });
    expect(statements).toHaveLength(1);
    const claimed = await dataSource.transaction((runner) => events.claimUndispatched(runner, 10));
    expect(claimed.map((event) => [event.tenantID, event.type, event.orderingKey, event.data, event.headers])).toEqual(
      ['a', 'b', 'c'].map((operatorID) => [tenantID, 'notifications.counts', `operator:${operatorID}`, { operatorID, counts: { mention: 1 } }, { 'x-request-id': 'req-2' }]),
    );
  });

  it('appends in the given runner and hands the event to both claims as a camelCase row, its instant to the microsecond', async () => {
    await dataSource.transaction((runner) =>
      events.append(runner, trustedTenantScope(tenantID), {
        type: 'member.removed',
        version: 2,
        orderingKey: 'member-1',
        data: { operatorID: 'op-1', roles: ['owner'] },
        emittedBy: 'core-tenants',
        headers: { 'x-request-id': 'req-1' },
      }),
    );
    await dataSource.query(`UPDATE webhook_events SET occurred_at = '2026-03-02T12:00:00.123456Z'`);

    const [dispatched] = await dataSource.transaction((runner) => events.claimUndispatched(runner, 10));
    expect(dispatched).toEqual({
      id: expect.any(String),
      tenantID,
      type: 'member.removed',
      version: 2,
      orderingKey: 'member-1',
      data: { operatorID: 'op-1', roles: ['owner'] },
      occurredAt: new Date('2026-03-02T12:00:00.123Z'),
      occurredAtExact: '2026-03-02T12:00:00.123456Z',
      headers: { 'x-request-id': 'req-1' },
    });
    const [streamed] = await dataSource.transaction((runner) => events.claimUnstreamed(runner, RELAY_LOCK, 10));
    expect(streamed).toEqual({
      id: dispatched.id,
      tenantID,
      type: 'member.removed',
      orderingKey: 'member-1',
      data: { operatorID: 'op-1', roles: ['owner'] },
      occurredAtExact: '2026-03-02T12:00:00.123456Z',
    });
  });

  it('writes nothing when the transaction it was appended in rolls back', async () => {
    await expect(
      dataSource.transaction(async (runner) => {
        await events.append(runner, trustedTenantScope(tenantID), { type: 'member.removed', version: 1, orderingKey: null, data: {}, emittedBy: 'core-tenants', headers: null });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await dataSource.transaction((runner) => events.claimUndispatched(runner, 10))).toEqual([]);
  });

  it("claims every tenant's undispatched events oldest first, the id ordering one instant, a batch at a time, until marked dispatched", async () => {
    const oldest = await occurred('2026-03-02T12:00:00.000001Z', otherTenantID);
    const tied = [await occurred('2026-03-02T12:00:00.000002Z'), await occurred('2026-03-02T12:00:00.000002Z')].sort();
    const newest = await occurred('2026-03-02T12:00:00.000003Z');

    expect(idsOf(await dataSource.transaction((runner) => events.claimUndispatched(runner, 10)))).toEqual([oldest, ...tied, newest]);
    await dataSource.transaction(async (runner) => {
      const batch = await events.claimUndispatched(runner, 2);
      expect(idsOf(batch)).toEqual([oldest, tied[0]]);
      await events.markDispatched(runner, idsOf(batch));
    });
    await dataSource.transaction((runner) => events.markDispatched(runner, []));
    expect(idsOf(await dataSource.transaction((runner) => events.claimUndispatched(runner, 10)))).toEqual([tied[1], newest]);
  });

  it('skips the events another open claim holds, and gives them back when that claim rolls back', async () => {
    const first = await occurred('2026-03-02T12:00:00.000001Z');
    const second = await occurred('2026-03-02T12:00:00.000002Z');

    await expect(
      dataSource.transaction(async (holder) => {
        expect(idsOf(await events.claimUndispatched(holder, 1))).toEqual([first]);
        expect(idsOf(await dataSource.transaction((other) => events.claimUndispatched(other, 10)))).toEqual([second]);
        throw new Error('the dispatcher died');
      }),
    ).rejects.toThrow('the dispatcher died');
    expect(idsOf(await dataSource.transaction((runner) => events.claimUndispatched(runner, 10)))).toEqual([first, second]);
  });

  it('lets one relay claim at a time, whatever the dispatcher did, until it marks its batch streamed', async () => {
    const first = await occurred('2026-03-02T12:00:00.000001Z');
    const second = await occurred('2026-03-02T12:00:00.000002Z', otherTenantID);
    await dataSource.transaction((runner) => events.markDispatched(runner, [first]));

    await dataSource.transaction(async (relay) => {
      expect(idsOf(await events.claimUnstreamed(relay, RELAY_LOCK, 1))).toEqual([first]);
      expect(await dataSource.transaction((other) => events.claimUnstreamed(other, RELAY_LOCK, 10))).toEqual([]);
      await events.markStreamed(relay, [first]);
    });
    expect(idsOf(await dataSource.transaction((runner) => events.claimUnstreamed(runner, RELAY_LOCK, 10)))).toEqual([second]);
    // Streaming is not dispatching: the dispatcher still has the second event to fan out.
    expect(idsOf(await dataSource.transaction((runner) => events.claimUndispatched(runner, 10)))).toEqual([second]);
  });

  it('sweeps events dispatched before the cutoff once the relay streamed them too, a batch at a time', async () => {
    const done = [await occurred('2026-03-02T12:00:00.000001Z'), await occurred('2026-03-02T12:00:00.000002Z', otherTenantID)];
    const notStreamed = await occurred('2026-03-02T12:00:00.000003Z');
    const dispatchedLater = await occurred('2026-03-02T12:00:00.000004Z');
    const undispatched = await occurred('2026-03-02T12:00:00.000005Z');
    const set = (ids: string[], dispatchedAt: string, streamed: boolean) =>
      dataSource.query(`UPDATE webhook_events SET dispatched_at = $2, streamed_at = CASE WHEN $3::boolean THEN now() END WHERE id = ANY($1::uuid[])`, [ids, dispatchedAt, streamed]);
    await set(done, '2026-03-01T00:00:00Z', true);
    await set([notStreamed], '2026-03-01T00:00:00Z', false);
    await set([dispatchedLater], '2026-03-03T00:00:00Z', true);
    const cutoff = new Date('2026-03-02T00:00:00Z');

    expect(await events.deleteDispatchedBefore(cutoff, 1)).toBe(1);
    expect(await events.deleteDispatchedBefore(cutoff, 10)).toBe(1);
    expect(await events.deleteDispatchedBefore(cutoff, 10)).toBe(0);
    const left = (await dataSource.query('SELECT id FROM webhook_events ORDER BY occurred_at')) as { id: string }[];
    expect(idsOf(left)).toEqual([notStreamed, dispatchedLater, undispatched]);
  });
});
