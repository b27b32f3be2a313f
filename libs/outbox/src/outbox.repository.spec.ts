import { trustedTenantScope } from '@platform/auth';
import { MIGRATIONS } from '@platform/database';
import { createTestDataSource, insertTenant } from '@platform/test-support';
import type { DataSource, EntityManager } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxConsumer } from './outbox-consumers';
import { OutboxRepository } from './outbox.repository';

/**
 * The outbox's SQL (libs/outbox) against PostgreSQL: the append and the
 * camelCase rows the claims hand on (the microsecond instant included),
 * each consumer's claim on its own state (oldest first, batched, one replica
 * of a consumer at a time, nothing another consumer holds in the way), the
 * retention sweep's window over every consumer, and the migration that
 * carried the previous marks over, on a test database of libs/test-support
 * (docs/testing.md).
 */
describe('OutboxRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let outbox: OutboxRepository;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(6));
    outbox = new OutboxRepository(dataSource);
    tenantID = await insertTenant(dataSource);
    otherTenantID = await insertTenant(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM webhook_events');
    await dataSource.query('DELETE FROM outbox_losses');
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
  const claimed = (consumer: OutboxConsumer, batch = 10) => dataSource.transaction((runner) => outbox.claim(runner, consumer, batch));
  const consume = (consumer: OutboxConsumer, ids: string[]) => dataSource.transaction((runner) => outbox.markConsumed(runner, consumer, ids));
  /** Runs `work` in a transaction left open until `work` returns what it holds. */
  const holding = async <T>(work: (runner: EntityManager) => Promise<T>, meanwhile: (held: T) => Promise<void>) =>
    dataSource.transaction(async (runner) => meanwhile(await work(runner)));

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
      await outbox.appendMany(counting, scope, { type: 'notifications.counts', version: 1, emittedBy: 'services-api', headers: { 'x-request-id': 'req-2' }, events: [] });
      await outbox.appendMany(counting, scope, {
        type: 'notifications.counts',
        version: 1,
        emittedBy: 'services-api',
        headers: { 'x-request-id': 'req-2' },
        events: ['a', 'b', 'c'].map((operatorID) => ({ orderingKey: `operator:${operatorID}`, data: { operatorID, counts: { mention: 1 } } })),
      });
    });
    expect(statements).toHaveLength(1);
    for (const consumer of ['webhooks', 'realtime'] as const) {
      expect((await claimed(consumer)).map((event) => [event.tenantID, event.type, event.orderingKey, event.data, event.headers])).toEqual(
        ['a', 'b', 'c'].map((operatorID) => [tenantID, 'notifications.counts', `operator:${operatorID}`, { operatorID, counts: { mention: 1 } }, { 'x-request-id': 'req-2' }]),
      );
    }
  });

  it('appends in the given runner and hands the event to every consumer as a camelCase row, its instant to the microsecond', async () => {
    await dataSource.transaction((runner) =>
      outbox.append(runner, trustedTenantScope(tenantID), {
        type: 'member.removed',
        version: 2,
        orderingKey: 'member-1',
        data: { operatorID: 'op-1', roles: ['owner'] },
        emittedBy: 'core-tenants',
        headers: { 'x-request-id': 'req-1' },
      }),
    );
    await dataSource.query(`UPDATE webhook_events SET occurred_at = '2026-03-02T12:00:00.123456Z'`);

    const expected = {
      id: expect.any(String),
      tenantID,
      type: 'member.removed',
      version: 2,
      orderingKey: 'member-1',
      data: { operatorID: 'op-1', roles: ['owner'] },
      occurredAt: new Date('2026-03-02T12:00:00.123Z'),
      occurredAtExact: '2026-03-02T12:00:00.123456Z',
      headers: { 'x-request-id': 'req-1' },
    };
    const [dispatched] = await claimed('webhooks');
    expect(dispatched).toEqual(expected);
    expect(await claimed('realtime')).toEqual([{ ...expected, id: dispatched.id }]);
  });

  it('writes nothing when the transaction it was appended in rolls back', async () => {
    await expect(
      dataSource.transaction(async (runner) => {
        await outbox.append(runner, trustedTenantScope(tenantID), { type: 'member.removed', version: 1, orderingKey: null, data: {}, emittedBy: 'core-tenants', headers: null });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await claimed('webhooks')).toEqual([]);
    expect(await claimed('realtime')).toEqual([]);
  });

  it("claims every tenant's pending events oldest first, the id ordering one instant, a batch at a time, until that consumer marks them consumed", async () => {
    const oldest = await occurred('2026-03-02T12:00:00.000001Z', otherTenantID);
    const tied = [await occurred('2026-03-02T12:00:00.000002Z'), await occurred('2026-03-02T12:00:00.000002Z')].sort();
    const newest = await occurred('2026-03-02T12:00:00.000003Z');

    expect(idsOf(await claimed('webhooks'))).toEqual([oldest, ...tied, newest]);
    await dataSource.transaction(async (runner) => {
      const batch = await outbox.claim(runner, 'webhooks', 2);
      expect(idsOf(batch)).toEqual([oldest, tied[0]]);
      await outbox.markConsumed(runner, 'webhooks', idsOf(batch));
    });
    await consume('webhooks', []);
    expect(idsOf(await claimed('webhooks'))).toEqual([tied[1], newest]);
    // Consuming is per consumer: the relay still has every event.
    expect(idsOf(await claimed('realtime'))).toEqual([oldest, ...tied, newest]);
  });

  it('lets one replica of a consumer claim at a time, the other consumer meanwhile, and gives a batch back when its claim rolls back', async () => {
    const first = await occurred('2026-03-02T12:00:00.000001Z');
    const second = await occurred('2026-03-02T12:00:00.000002Z', otherTenantID);

    await expect(
      holding(
        (relay) => outbox.claim(relay, 'realtime', 1),
        async (batch) => {
          expect(idsOf(batch)).toEqual([first]);
          expect(await claimed('realtime')).toEqual([]);
          expect(idsOf(await claimed('webhooks'))).toEqual([first, second]);
          throw new Error('the relay died');
        },
      ),
    ).rejects.toThrow('the relay died');
    expect(idsOf(await claimed('realtime'))).toEqual([first, second]);
  });

  it("never hides nor reorders a consumer's events behind what another consumer's open transaction holds", async () => {
    const [first, second, third] = [
      await occurred('2026-03-02T12:00:00.000001Z'),
      await occurred('2026-03-02T12:00:00.000002Z'),
      await occurred('2026-03-02T12:00:00.000003Z'),
    ];
    // The dispatcher mid-batch: its claim and marks of the first two held, and (as the previous release's dispatcher did) their event rows locked.
    await holding(
      async (dispatcher) => {
        const batch = await outbox.claim(dispatcher, 'webhooks', 2);
        await outbox.markConsumed(dispatcher, 'webhooks', idsOf(batch));
        await dispatcher.query('SELECT id FROM webhook_events WHERE id = ANY($1::uuid[]) FOR UPDATE', [idsOf(batch)]);
        return batch;
      },
      async () => {
        expect(idsOf(await claimed('realtime'))).toEqual([first, second, third]);
      },
    );
    // And the other way round: the relay mid-batch holds its marks; the dispatcher takes what it has left, in order.
    await holding(
      async (relay) => {
        const batch = await outbox.claim(relay, 'realtime', 3);
        await outbox.markConsumed(relay, 'realtime', idsOf(batch));
        return batch;
      },
      async () => {
        expect(idsOf(await claimed('webhooks'))).toEqual([third]);
      },
    );
  });

  it('deletes events past the window, consumed or not, a batch at a time, and records per consumer and tenant what a stopped consumer missed', async () => {
    const old = [await occurred('2026-03-01T12:00:00.000001Z'), await occurred('2026-03-01T12:00:00.000002Z', otherTenantID), await occurred('2026-03-01T12:00:00.000003Z')];
    const recent = await occurred('2026-03-02T12:00:00.000001Z');
    // The dispatcher keeps up; the relay is stopped.
    await consume('webhooks', [...old, recent]);
    const cutoff = new Date('2026-03-02T00:00:00Z');

    expect(await outbox.deleteExpired(cutoff, 2)).toEqual({ deleted: 2, unconsumed: { realtime: 2 } });
    expect(await outbox.deleteExpired(cutoff, 10)).toEqual({ deleted: 1, unconsumed: { realtime: 1 } });
    expect(await outbox.deleteExpired(cutoff, 10)).toEqual({ deleted: 0, unconsumed: {} });
    expect(idsOf((await dataSource.query('SELECT id FROM webhook_events')) as { id: string }[])).toEqual([recent]);

    // The relay learns once, per tenant, under its claim; the dispatcher lost nothing.
    expect(await dataSource.transaction((runner) => outbox.takeLosses(runner, 'webhooks'))).toEqual([]);
    await holding(
      (replica) => outbox.claim(replica, 'realtime', 10),
      async () => expect(await dataSource.transaction((runner) => outbox.takeLosses(runner, 'realtime'))).toEqual([]),
    );
    const losses = await dataSource.transaction((runner) => outbox.takeLosses(runner, 'realtime'));
    expect(losses.sort((a, b) => b.events - a.events)).toEqual([
      { tenantID, events: 2 },
      { tenantID: otherTenantID, events: 1 },
    ]);
    expect(await dataSource.transaction((runner) => outbox.takeLosses(runner, 'realtime'))).toEqual([]);
    expect(idsOf(await claimed('realtime'))).toEqual([recent]);
  });

  it("carries the previous release's marks into each consumer's claim state at the upgrade, and back at a downgrade", async () => {
    const migration = MIGRATIONS.find((each) => each.name === 'OutboxConsumers1765100000000')!;
    const runner = dataSource.createQueryRunner();
    try {
      await new migration().down(runner);
      const dispatchedOnly = await occurred('2026-03-02T12:00:00.000001Z');
      const streamedOnly = await occurred('2026-03-02T12:00:00.000002Z');
      const neither = await occurred('2026-03-02T12:00:00.000003Z');
      const both = await occurred('2026-03-02T12:00:00.000004Z');
      await dataSource.query(`UPDATE webhook_events SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [[dispatchedOnly, both]]);
      await dataSource.query(`UPDATE webhook_events SET streamed_at = now() WHERE id = ANY($1::uuid[])`, [[streamedOnly, both]]);

      await new migration().up(runner);
      expect(idsOf(await claimed('webhooks'))).toEqual([streamedOnly, neither]);
      expect(idsOf(await claimed('realtime'))).toEqual([dispatchedOnly, neither]);
      // Appends after the upgrade are pending for both.
      const appended = await occurred('2026-03-02T12:00:00.000005Z');
      expect(idsOf(await claimed('webhooks'))).toEqual([streamedOnly, neither, appended]);

      await consume('webhooks', [streamedOnly]);
      await new migration().down(runner);
      const marks = (await dataSource.query(
        `SELECT id, dispatched_at IS NOT NULL AS dispatched, streamed_at IS NOT NULL AS streamed FROM webhook_events ORDER BY occurred_at`,
      )) as { id: string; dispatched: boolean; streamed: boolean }[];
      expect(marks).toEqual([
        { id: dispatchedOnly, dispatched: true, streamed: false },
        { id: streamedOnly, dispatched: true, streamed: true },
        { id: neither, dispatched: false, streamed: false },
        { id: both, dispatched: true, streamed: true },
        { id: appended, dispatched: false, streamed: false },
      ]);
    } finally {
      await new migration().up(runner).catch(() => undefined);
      await runner.release();
    }
  });
});
