import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotificationFanoutsRepository } from './notification-fanouts.repository';

/**
 * Inbox notifications' SQL against PostgreSQL: the direct notifications (one
 * unread per operator and session), reads, the fan-out queue's claim and its
 * camelCase row, and who a fan-out notifies or clears, by the session's state
 * as it is when carried out. Nothing of another tenant crosses over.
 */
describe('NotificationFanoutsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let fanouts: NotificationFanoutsRepository;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let contactID: string;
  /** Members of the tenant; `outsider` is a member of the other tenant only. */
  const operators: Record<'ana' | 'bia' | 'caio' | 'outsider', string> = { ana: '', bia: '', caio: '', outsider: '' };

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    fanouts = new NotificationFanoutsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    for (const name of ['ana', 'bia', 'caio', 'outsider'] as const) operators[name] = (await fixtures.operator()).operatorID;
    for (const name of ['ana', 'bia', 'caio'] as const) await fixtures.membership(tenantID, operators[name], 'member');
    await fixtures.membership(otherTenantID, operators.outsider, 'member');
    inboxID = await conversations.inbox(tenantID);
    contactID = await conversations.contact(tenantID);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM notification_fanouts');
    await dataSource.query('DELETE FROM notifications');
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const session = (options: { operatorID?: string; participants?: string[]; listed?: boolean; closed?: boolean } = {}) =>
    conversations.session(tenantID, { contactID, inboxID, operatorID: options.operatorID, participants: options.participants, listed: options.listed, closedAt: options.closed ? new Date() : null });
  const nameOf = (operatorID: string) => Object.entries(operators).find(([, id]) => id === operatorID)![0];
  /** Who has an unread notification of the session, by category. */
  const unread = async (sessionID: string) => {
    const found = (await dataSource.query(`SELECT operator_id, category FROM notifications WHERE session_id = $1 AND read_at IS NULL`, [sessionID])) as {
      operator_id: string;
      category: string;
    }[];
    return found.map((row) => `${nameOf(row.operator_id)} ${row.category}`).sort();
  };
  /** Enqueues, claims and carries out one fan-out of the session; answers the names of the operators it moved (carryOut's ids), sorted. */
  const fanOut = (sessionID: string, kind: 'notify' | 'clear') =>
    fanouts.transaction(async (runner) => {
      await fanouts.enqueue(runner, scope(), sessionID, kind);
      const due = await fanouts.claim(runner);
      const moved = await fanouts.carryOut(runner, due!);
      await fanouts.delete(runner, due!.id);
      return moved.map(nameOf).sort();
    });

  it('notifies an operator once per session while unread; an assignment always; a read is scoped to the tenant', async () => {
    const sessionID = await session();
    await fanouts.transaction(async (runner) => {
      expect(await fanouts.notifyOperator(runner, scope(), { operatorID: operators.ana, inboxID, sessionID })).toBe(true);
      expect(await fanouts.notifyOperator(runner, scope(), { operatorID: operators.ana, inboxID, sessionID })).toBe(false);
      await fanouts.notifyAssignment(runner, scope(), operators.ana, sessionID);
      await fanouts.notifyAssignment(runner, scope(), operators.ana, sessionID);
    });
    expect(await unread(sessionID)).toEqual(['ana assignment', 'ana assignment', 'ana inbox']);

    expect(await fanouts.markRead(dataSource, scope(otherTenantID), sessionID, operators.ana)).toBe(0);
    expect(await fanouts.markRead(dataSource, scope(), sessionID, operators.bia)).toBe(0);
    expect(await fanouts.markRead(dataSource, scope(), sessionID, operators.ana)).toBe(3);
    expect(await unread(sessionID)).toEqual([]);
    await fanouts.notifyOperator(dataSource, scope(), { operatorID: operators.ana, inboxID, sessionID });
    expect(await unread(sessionID)).toEqual(['ana inbox']);
  });

  it('claims the oldest fan-out as a camelCase row, skips one another transaction holds, and forgets a deleted one', async () => {
    const first = await session();
    const second = await session();
    await fanouts.enqueue(dataSource, scope(), first, 'notify');
    await fanouts.enqueue(dataSource, scope(), second, 'clear');

    await fanouts.transaction(async (holder) => {
      const held = await fanouts.claim(holder);
      expect(held).toEqual({ id: expect.any(String), tenantID, sessionID: first, kind: 'notify' });
      const next = await fanouts.transaction((other) => fanouts.claim(other));
      expect(next).toEqual({ id: expect.any(String), tenantID, sessionID: second, kind: 'clear' });
      await fanouts.delete(holder, held!.id);
    });
    expect((await fanouts.transaction((runner) => fanouts.claim(runner)))?.sessionID).toBe(second);
    await fanouts.transaction(async (runner) => fanouts.delete(runner, (await fanouts.claim(runner))!.id));
    expect(await fanouts.transaction((runner) => fanouts.claim(runner))).toBeUndefined();
  });

  it("notifies every member of the tenant for a queued listed session, leaving out whoever has an unread one and other tenants' operators", async () => {
    const sessionID = await session();
    await conversations.notification(tenantID, { operatorID: operators.ana, category: 'inbox', inboxID, sessionID });
    await conversations.notification(tenantID, { operatorID: operators.bia, category: 'inbox', inboxID, sessionID, read: true });

    expect(await fanOut(sessionID, 'notify')).toEqual(['bia', 'caio']);
    expect(await unread(sessionID)).toEqual(['ana inbox', 'bia inbox', 'caio inbox']);
    expect(await fanOut(sessionID, 'notify')).toEqual([]);
    expect(await unread(sessionID)).toEqual(['ana inbox', 'bia inbox', 'caio inbox']);
  });

  it("notifies an unlisted queued session's participants, an assigned session's assignee, and nobody for a closed one", async () => {
    const unlisted = await session({ listed: false, participants: [operators.bia] });
    const assigned = await session({ operatorID: operators.caio, participants: [operators.bia] });
    const closed = await session({ closed: true });

    expect(await fanOut(unlisted, 'notify')).toEqual(['bia']);
    expect(await unread(unlisted)).toEqual(['bia inbox']);
    expect(await fanOut(assigned, 'notify')).toEqual(['caio']);
    expect(await unread(assigned)).toEqual(['caio inbox']);
    expect(await fanOut(closed, 'notify')).toEqual([]);
    expect(await unread(closed)).toEqual([]);
  });

  it("clears everyone's unread notifications of the session but the assignee's; everyone's when nobody is assigned or it is closed", async () => {
    const assigned = await session({ operatorID: operators.caio });
    const queued = await session();
    const closed = await session({ operatorID: operators.caio, closed: true });
    for (const sessionID of [assigned, queued, closed]) {
      for (const name of ['ana', 'caio'] as const) await conversations.notification(tenantID, { operatorID: operators[name], category: 'inbox', inboxID, sessionID });
    }

    expect(await fanOut(assigned, 'clear')).toEqual(['ana']);
    expect(await unread(assigned)).toEqual(['caio inbox']);
    expect(await fanOut(queued, 'clear')).toEqual(['ana', 'caio']);
    expect(await unread(queued)).toEqual([]);
    expect(await fanOut(closed, 'clear')).toEqual(['ana', 'caio']);
    expect(await unread(closed)).toEqual([]);
  });

  it('answers an operator a clear moved once, though it cleared two of their notifications of the session', async () => {
    const sessionID = await session({ operatorID: operators.caio });
    await conversations.notification(tenantID, { operatorID: operators.ana, category: 'inbox', inboxID, sessionID });
    await conversations.notification(tenantID, { operatorID: operators.ana, category: 'assignment', sessionID });
    expect(await fanOut(sessionID, 'clear')).toEqual(['ana']);
  });
});
