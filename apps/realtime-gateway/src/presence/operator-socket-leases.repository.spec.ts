import { randomUUID } from 'node:crypto';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorSocketLeasesRepository } from './operator-socket-leases.repository';

/**
 * The gateway's socket leases against PostgreSQL: opened once, refreshed
 * with the activity's age on the database's clock (never backwards), left
 * alone once closed, and purged only when not seen for a day.
 */
describe('OperatorSocketLeasesRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let leases: OperatorSocketLeasesRepository;
  let tenantID: string;
  let operatorID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    leases = new OperatorSocketLeasesRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    tenantID = await fixtures.tenant();
    ({ operatorID } = await fixtures.operator());
    await fixtures.membership(tenantID, operatorID, 'member');
  });
  afterAll(() => close?.());

  /** The lease's times as ages in whole seconds, on the database's clock. */
  const ages = async (socketID: string) => {
    const [row] = (await dataSource.query(
      `SELECT round(extract(epoch FROM now() - seen_at))::int AS seen, round(extract(epoch FROM now() - last_activity_at))::int AS active, closed_at IS NOT NULL AS closed
         FROM operator_socket_leases WHERE socket_id = $1`,
      [socketID],
    )) as { seen: number; active: number; closed: boolean }[];
    return row;
  };
  const age = (socketID: string, seenSeconds: number, activeSeconds: number) =>
    dataSource.query(`UPDATE operator_socket_leases SET seen_at = now() - make_interval(secs => $2), last_activity_at = now() - make_interval(secs => $3) WHERE socket_id = $1`, [
      socketID,
      seenSeconds,
      activeSeconds,
    ]);

  it('opens a lease once, seen and active now', async () => {
    const socketID = randomUUID();
    await leases.open(socketID, tenantID, operatorID);
    await leases.open(socketID, tenantID, operatorID);
    expect(await ages(socketID)).toEqual({ seen: 0, active: 0, closed: false });
  });

  it('refreshes open leases with the activity age, never moving an activity back, and leaves closed ones alone', async () => {
    const [open, older, closed] = [randomUUID(), randomUUID(), randomUUID()];
    for (const socketID of [open, older, closed]) await leases.open(socketID, tenantID, operatorID);
    await leases.close(closed);
    for (const socketID of [open, older, closed]) await age(socketID, 30, 600);
    await leases.refresh([
      { socketID: open, idleSeconds: 120 },
      { socketID: older, idleSeconds: 900 },
      { socketID: closed, idleSeconds: 0 },
    ]);
    expect(await ages(open)).toEqual({ seen: 0, active: 120, closed: false });
    expect(await ages(older)).toEqual({ seen: 0, active: 600, closed: false });
    expect(await ages(closed)).toEqual({ seen: 30, active: 600, closed: true });
  });

  it('stamps a lease seen when its socket closes', async () => {
    const socketID = randomUUID();
    await leases.open(socketID, tenantID, operatorID);
    await age(socketID, 10, 10);
    await leases.close(socketID);
    expect(await ages(socketID)).toEqual({ seen: 0, active: 10, closed: true });
  });

  it('purges only the leases not seen for a day', async () => {
    const [stale, recent] = [randomUUID(), randomUUID()];
    for (const socketID of [stale, recent]) await leases.open(socketID, tenantID, operatorID);
    await age(stale, 86_401, 86_401);
    await age(recent, 86_000, 86_000);
    expect(await leases.purgeStale(100)).toBe(1);
    expect(await ages(stale)).toBeUndefined();
    expect(await ages(recent)).toBeDefined();
  });
});
