import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, insertTenant } from '@platform/test-support';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditAction } from './audit-actions';
import { AuditEventsRepository, NewAuditEvent } from './audit-events.repository';

/**
 * The audit log's SQL (libs/audit) against PostgreSQL: the append and the
 * camelCase row it reads back, tenant scoping, the list's order (newest
 * first, the id breaking ties of one instant) and its pages, each filter and
 * the half-open range, and the retention sweep's bounded batches, on a test
 * database of libs/test-support (docs/testing.md).
 */
describe('AuditEventsRepository', () => {
  const ACTOR = '9c8b7a6d-5e4f-4321-8abc-def012345678';
  const OTHER_ACTOR = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let events: AuditEventsRepository;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    events = new AuditEventsRepository(dataSource);
    tenantID = await insertTenant(dataSource);
    otherTenantID = await insertTenant(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM audit_events');
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const newEvent = (overrides: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
    action: 'member.roleChanged',
    actorKind: 'operator',
    actorID: ACTOR,
    requestID: 'req-1',
    targetKind: 'member',
    targetID: randomUUID(),
    summary: {},
    recordedBy: 'core-tenants',
    ...overrides,
  });

  /**
   * An event that occurred at `at` (the table is append-only, and `append`
   * takes the clock): written as the migrated table takes it, so a spec sets
   * the instants it orders and filters by. Answers the event's id.
   */
  const occurred = async (at: string, event: { tenant?: string; action?: AuditAction; actorID?: string } = {}): Promise<string> => {
    const [row] = (await dataSource.query(
      `INSERT INTO audit_events (tenant_id, occurred_at, action, actor_kind, actor_id, target_kind, target_id, recorded_by)
       VALUES ($1, $2, $3, 'operator', $4, 'member', $5, 'core-tenants') RETURNING id`,
      [event.tenant ?? tenantID, at, event.action ?? 'member.roleChanged', event.actorID ?? ACTOR, randomUUID()],
    )) as { id: string }[];
    return row.id;
  };
  const idsOf = (found: { id: string }[]) => found.map((event) => event.id);

  it('appends an event in the given runner and reads it back as a camelCase row, summary and nulls as written', async () => {
    const summary = { role: 'owner', changed: ['role'], notified: true, members: 2, previous: null };
    await dataSource.transaction((runner) => events.append(runner, scope(), newEvent({ summary, targetID: 'target-1' })));
    await events.append(dataSource, scope(), newEvent({ action: 'invitation.sent', actorKind: 'pluginConnection', requestID: null, targetKind: 'invitation' }));

    const [later, first] = await events.page(scope(), {}, 10, 0);
    expect(first).toEqual({
      id: expect.any(String),
      tenantID,
      occurredAt: expect.any(Date),
      action: 'member.roleChanged',
      actorKind: 'operator',
      actorID: ACTOR,
      requestID: 'req-1',
      targetKind: 'member',
      targetID: 'target-1',
      summary,
    });
    expect(later).toMatchObject({ action: 'invitation.sent', actorKind: 'pluginConnection', requestID: null, targetKind: 'invitation' });
    const [stored] = (await dataSource.query('SELECT recorded_by AS "recordedBy" FROM audit_events WHERE id = $1', [first.id])) as object[];
    expect(stored).toEqual({ recordedBy: 'core-tenants' });
  });

  it('writes nothing when the transaction it was appended in rolls back', async () => {
    await expect(
      dataSource.transaction(async (runner) => {
        await events.append(runner, scope(), newEvent());
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await events.count(scope(), {})).toBe(0);
  });

  it("counts and lists one tenant's events only", async () => {
    const own = await occurred('2026-03-02T12:00:00.000Z');
    await occurred('2026-03-02T12:00:01.000Z', { tenant: otherTenantID });
    await occurred('2026-03-02T12:00:02.000Z', { tenant: otherTenantID });

    expect(await events.count(scope(), {})).toBe(1);
    expect(idsOf(await events.page(scope(), {}, 10, 0))).toEqual([own]);
    expect(await events.count(scope(otherTenantID), {})).toBe(2);
    expect(await events.count(scope(randomUUID()), {})).toBe(0);
    expect(await events.page(scope(randomUUID()), {}, 10, 0)).toEqual([]);
  });

  it('lists newest first, the id ordering events of one instant, in pages that neither skip nor repeat', async () => {
    const oldest = await occurred('2026-03-02T12:00:00.000Z');
    const tied = [await occurred('2026-03-02T12:00:01.000Z'), await occurred('2026-03-02T12:00:01.000Z'), await occurred('2026-03-02T12:00:01.000Z')];
    const newest = await occurred('2026-03-02T12:00:02.000Z');
    const order = [newest, ...[...tied].sort().reverse(), oldest];

    expect(idsOf(await events.page(scope(), {}, 10, 0))).toEqual(order);
    const pages = [await events.page(scope(), {}, 2, 0), await events.page(scope(), {}, 2, 2), await events.page(scope(), {}, 2, 4)];
    expect(pages.map(idsOf)).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
    expect(await events.page(scope(), {}, 2, 5)).toEqual([]);
    expect(await events.count(scope(), {})).toBe(5);
  });

  it('filters by action and by actor, count and page alike, and by both at once', async () => {
    const changed = await occurred('2026-03-02T12:00:00.000Z', { action: 'member.roleChanged' });
    const removedByOther = await occurred('2026-03-02T12:00:01.000Z', { action: 'member.removed', actorID: OTHER_ACTOR });
    const removed = await occurred('2026-03-02T12:00:02.000Z', { action: 'member.removed' });

    expect(await events.count(scope(), { action: 'member.removed' })).toBe(2);
    expect(idsOf(await events.page(scope(), { action: 'member.removed' }, 10, 0))).toEqual([removed, removedByOther]);
    expect(await events.count(scope(), { actorID: ACTOR })).toBe(2);
    expect(idsOf(await events.page(scope(), { actorID: ACTOR }, 10, 0))).toEqual([removed, changed]);
    expect(idsOf(await events.page(scope(), { action: 'member.removed', actorID: OTHER_ACTOR }, 10, 0))).toEqual([removedByOther]);
    expect(await events.count(scope(), { action: 'inbox.created' })).toBe(0);
    expect(await events.page(scope(), { action: 'inbox.created' }, 10, 0)).toEqual([]);
  });

  it('filters by a half-open range: from included, to left out, either bound alone', async () => {
    const before = await occurred('2026-03-02T11:59:59.999Z');
    const atFrom = await occurred('2026-03-02T12:00:00.000Z');
    const inside = await occurred('2026-03-02T12:30:00.000Z');
    const atTo = await occurred('2026-03-02T13:00:00.000Z');
    const from = new Date('2026-03-02T12:00:00.000Z');
    const to = new Date('2026-03-02T13:00:00.000Z');

    expect(idsOf(await events.page(scope(), { from, to }, 10, 0))).toEqual([inside, atFrom]);
    expect(await events.count(scope(), { from, to })).toBe(2);
    expect(idsOf(await events.page(scope(), { from }, 10, 0))).toEqual([atTo, inside, atFrom]);
    expect(idsOf(await events.page(scope(), { to }, 10, 0))).toEqual([inside, atFrom, before]);
    expect(await events.count(scope(), { from: to, to })).toBe(0);
    expect(idsOf(await events.page(scope(), { from, to, action: 'member.roleChanged', actorID: ACTOR }, 1, 1))).toEqual([atFrom]);
  });

  it("deletes events older than the cutoff, every tenant's, oldest first, at most a batch at a time", async () => {
    const oldest = await occurred('2026-01-01T00:00:00.000Z', { tenant: otherTenantID });
    await occurred('2026-01-02T00:00:00.000Z');
    await occurred('2026-01-03T00:00:00.000Z', { tenant: otherTenantID });
    const atCutoff = await occurred('2026-02-01T00:00:00.000Z');
    const cutoff = new Date('2026-02-01T00:00:00.000Z');
    const remaining = async () => idsOf([...(await events.page(scope(), {}, 10, 0)), ...(await events.page(scope(otherTenantID), {}, 10, 0))]);

    expect(await events.deleteOlderThan(cutoff, 1)).toBe(1);
    expect(await remaining()).not.toContain(oldest);
    expect(await events.deleteOlderThan(cutoff, 5)).toBe(2);
    expect(await events.deleteOlderThan(cutoff, 5)).toBe(0);
    expect(await remaining()).toEqual([atCutoff]);
  });
});
