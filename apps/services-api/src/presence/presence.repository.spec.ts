import { randomUUID } from 'node:crypto';
import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresenceRepository, PresenceThresholds } from './presence.repository';

/**
 * Presence against PostgreSQL: the socket facts a lease gives, the
 * reconciler's moves (each operator to the status the rule gives, once,
 * skipping rows another transaction holds), and the tenant's list by
 * keyset with nothing of another tenant's.
 */
describe('PresenceRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let presence: PresenceRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let otherTenantID: string;
  const thresholds: PresenceThresholds = { offlineGraceSeconds: 60, awayAfterSeconds: 300 };

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(3));
    presence = new PresenceRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());

  const member = async (tenant = tenantID) => {
    const { operatorID } = await fixtures.operator();
    await fixtures.membership(tenant, operatorID, 'member');
    return operatorID;
  };
  /** A socket lease last seen and last active the given seconds ago. */
  const lease = async (operatorID: string, options: { seenSecondsAgo?: number; idleSeconds?: number; tenant?: string } = {}) => {
    const socketID = randomUUID();
    await dataSource.query(
      `INSERT INTO operator_socket_leases (socket_id, tenant_id, operator_id, seen_at, last_activity_at)
       VALUES ($1, $2, $3, now() - make_interval(secs => $4), now() - make_interval(secs => $5))`,
      [socketID, options.tenant ?? tenantID, operatorID, options.seenSecondsAgo ?? 0, options.idleSeconds ?? 0],
    );
    return socketID;
  };
  const choose = (operatorID: string, status: 'online' | 'busy' | 'away' | 'offline', tenant = tenantID) =>
    presence.transaction((runner) => presence.choose(runner, trustedTenantScope(tenant), operatorID, status));
  const statusOf = async (operatorID: string, tenant = tenantID) => (await presence.find(trustedTenantScope(tenant), operatorID))?.status;
  const reconcile = () =>
    presence.transaction(async (runner) => {
      await presence.ensureRowsForLiveLeases(runner, thresholds);
      return presence.moveDue(runner, thresholds, 100);
    });

  it('tells from the leases whether a socket was seen within the grace and whether it was idle past the threshold', async () => {
    const scope = trustedTenantScope(tenantID);
    const facts = (operatorID: string) => presence.socketFacts(dataSource, scope, operatorID, thresholds);
    const none = await member();
    const active = await member();
    await lease(active, { idleSeconds: 10 });
    const idle = await member();
    await lease(idle, { idleSeconds: 600 });
    const lapsed = await member();
    await lease(lapsed, { seenSecondsAgo: 120 });
    // One idle socket and one active: the operator is active.
    const twoSockets = await member();
    await lease(twoSockets, { idleSeconds: 600 });
    await lease(twoSockets, { idleSeconds: 5 });
    expect(await facts(none)).toEqual({ live: false, idle: true });
    expect(await facts(active)).toEqual({ live: true, idle: false });
    expect(await facts(idle)).toEqual({ live: true, idle: true });
    expect(await facts(lapsed)).toMatchObject({ live: false });
    expect(await facts(twoSockets)).toEqual({ live: true, idle: false });
    // Another tenant's view of the same operator has no socket.
    expect(await presence.socketFacts(dataSource, trustedTenantScope(otherTenantID), active, thresholds)).toEqual({ live: false, idle: true });
  });

  it('moves each operator to the status the rule gives, once, and only in their own tenant', async () => {
    await reconcile();
    const connected = await member();
    await lease(connected);
    const busy = await member();
    await choose(busy, 'busy');
    await lease(busy, { idleSeconds: 900 });
    const idle = await member();
    await lease(idle, { idleSeconds: 900 });
    const chosenOffline = await member();
    await choose(chosenOffline, 'offline');
    await lease(chosenOffline);
    const gone = await member();
    await dataSource.query(`INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, 'online', 'online')`, [tenantID, gone]);
    await lease(gone, { seenSecondsAgo: 61 });
    const elsewhere = await member(otherTenantID);
    await lease(elsewhere, { tenant: otherTenantID });

    const moved = await reconcile();
    expect(moved.map((row) => [row.operatorID, row.tenantID, row.status, row.chosenStatus]).sort()).toEqual(
      [
        [connected, tenantID, 'online', 'online'],
        [busy, tenantID, 'busy', 'busy'],
        [idle, tenantID, 'away', 'online'],
        [gone, tenantID, 'offline', 'online'],
        [elsewhere, otherTenantID, 'online', 'online'],
      ].sort(),
    );
    expect(await statusOf(chosenOffline)).toBe('offline');
    expect(await statusOf(elsewhere)).toBeUndefined();
    expect(await statusOf(elsewhere, otherTenantID)).toBe('online');
    // Nothing changed since: nothing moves again.
    expect(await reconcile()).toEqual([]);

    // The idle operator comes back: online again.
    await dataSource.query(`UPDATE operator_socket_leases SET last_activity_at = now() WHERE operator_id = $1`, [idle]);
    expect((await reconcile()).map((row) => [row.operatorID, row.status])).toEqual([[idle, 'online']]);
  });

  it('skips an operator whose row another transaction holds, and moves them once it is released', async () => {
    await reconcile();
    const held = await member();
    await choose(held, 'online');
    await lease(held);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SELECT 1 FROM operator_presence WHERE tenant_id = $1 AND operator_id = $2 FOR UPDATE`, [tenantID, held]);
      expect((await reconcile()).map((row) => row.operatorID)).not.toContain(held);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    expect((await reconcile()).map((row) => [row.operatorID, row.status])).toEqual([[held, 'online']]);
  });

  it('refuses a choice of an operator who is not a member (removed since the access check) with 403 1004, writing nothing', async () => {
    const { operatorID } = await fixtures.operator();
    await expect(choose(operatorID, 'busy')).rejects.toMatchObject({ status: 403, key: 'Forbidden' });
    expect(await statusOf(operatorID)).toBeUndefined();
  });

  it("lists the tenant's members by operator id, by keyset, offline with no time when never recorded, and no one else's", async () => {
    const tenant = await fixtures.tenant();
    const ids = [await member(tenant), await member(tenant), await member(tenant)].sort();
    await dataSource.query(`INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, 'busy', 'busy')`, [tenant, ids[1]]);
    const scope = trustedTenantScope(tenant);
    const all = await presence.page(scope, undefined, 10);
    expect(all.map((row) => [row.operatorID, row.status])).toEqual([
      [ids[0], 'offline'],
      [ids[1], 'busy'],
      [ids[2], 'offline'],
    ]);
    expect(all[0].changedAt).toBeNull();
    expect(all[1].changedAt).toBeInstanceOf(Date);
    const first = await presence.page(scope, undefined, 2);
    const rest = await presence.page(scope, first[1].operatorID, 2);
    expect([...first, ...rest].map((row) => row.operatorID)).toEqual(ids);
    expect(await presence.page(trustedTenantScope(await fixtures.tenant()), undefined, 10)).toEqual([]);
  });
});
