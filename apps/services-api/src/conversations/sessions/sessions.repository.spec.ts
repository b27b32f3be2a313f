import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionsRepository } from './sessions.repository';

/**
 * Sessions' SQL against PostgreSQL: the view (the session's camelCase DTO
 * with its last message, summary, state and inbox connection), the
 * transitions (assign, transfer, join, close) and what each does to the
 * participants, the contact of a handle and the open session an inbound
 * message lands in, the retention sweep, and tenant scoping.
 */
describe('SessionsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let sessions: SessionsRepository;
  let conversations: ConversationFixtures;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let contactID: string;
  let pluginConnectionID: string;
  let [ana, bia, caio] = ['', '', ''];

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    sessions = new SessionsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    otherTenantID = await fixtures.tenant();
    [ana, bia, caio] = [(await fixtures.operator()).operatorID, (await fixtures.operator()).operatorID, (await fixtures.operator()).operatorID];
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
    pluginConnectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    inboxID = await conversations.inbox(tenantID, { pluginConnectionID });
    contactID = await conversations.contact(tenantID);
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const newSession = (options: { operatorID?: string; participants?: string[]; closedAt?: Date } = {}) =>
    conversations.session(tenantID, { contactID, inboxID, ...options });
  const change = <T>(work: (runner: SqlRunner) => Promise<T>) => sessions.transaction(work);
  const people = async (sessionID: string) => {
    const view = await sessions.view(scope(), sessionID);
    return { operatorID: view!.session.operatorID, participants: view!.session.operatorParticipantsIDs };
  };

  it('shows a session as its camelCase DTO with its last message, summary, state and inbox connection, in its tenant only', async () => {
    const sessionID = await newSession();
    await conversations.message(tenantID, sessionID, { value: 'Oi', createdAt: new Date('2026-03-02T12:00:00Z') });
    await conversations.summary(tenantID, sessionID, { topic: 'billing' });

    expect(await sessions.view(scope(), sessionID)).toEqual({
      session: expect.objectContaining({
        sessionID,
        tenantID,
        contactID,
        inboxID,
        operatorID: null,
        operatorParticipantsIDs: [],
        sessionChannel: 'whatsapp',
        sessionType: 'chat',
        sessionActive: true,
        sessionListed: true,
        sessionLastMessageID: expect.any(String),
        lastMessage: { messageDirection: 'inbound', messageKey: 'text', messageStatus: 0, messageValue: 'Oi' },
        closedAt: null,
        sessionSummary: { topic: 'billing' },
        sessionState: expect.any(String),
      }),
      pluginConnectionID,
    });
    expect(await sessions.view(scope(otherTenantID), sessionID)).toBeUndefined();
    expect(await change((runner) => sessions.lockedView(runner, scope(otherTenantID), sessionID))).toBeUndefined();
    expect(await change((runner) => sessions.lockedView(runner, scope(), sessionID))).toMatchObject({ session: { sessionID } });
  });

  it('assigns, transfers and joins: the assignee is never a participant, a transferred-from assignee stays one', async () => {
    const sessionID = await newSession({ participants: [bia] });

    await change((runner) => sessions.join(runner, scope(), sessionID, caio));
    expect(await people(sessionID)).toEqual({ operatorID: null, participants: [bia, caio] });
    await change((runner) => sessions.assign(runner, scope(), sessionID, bia));
    expect(await people(sessionID)).toEqual({ operatorID: bia, participants: [caio] });
    await change((runner) => sessions.transfer(runner, scope(), sessionID, caio));
    expect(await people(sessionID)).toEqual({ operatorID: caio, participants: [bia] });
    await change((runner) => sessions.transfer(runner, scope(), sessionID, ana));
    expect(await people(sessionID)).toEqual({ operatorID: ana, participants: [bia, caio] });
    await change((runner) => sessions.assign(runner, scope(otherTenantID), sessionID, bia));
    expect(await people(sessionID)).toEqual({ operatorID: ana, participants: [bia, caio] });
  });

  it('closes a session of the tenant only', async () => {
    const sessionID = await newSession();
    await change((runner) => sessions.close(runner, scope(otherTenantID), sessionID));
    expect((await sessions.view(scope(), sessionID))!.session).toMatchObject({ closedAt: null, sessionActive: true });
    await change((runner) => sessions.close(runner, scope(), sessionID));
    expect((await sessions.view(scope(), sessionID))!.session).toMatchObject({ closedAt: expect.any(String), sessionActive: false });
  });

  it("finds a handle's contact, creating it once per tenant and channel", async () => {
    const contactOf = (channel: string, handle: string, tenant = tenantID) =>
      change((runner) => sessions.contactOfHandle(runner, scope(tenant), { channel, handle, name: 'Maria' }));

    const created = await contactOf('whatsapp', '+5511999990000');
    expect(await contactOf('whatsapp', '+5511999990000')).toBe(created);
    expect(await contactOf('instagram', '+5511999990000')).not.toBe(created);
    expect(await contactOf('whatsapp', '+5511999990000', otherTenantID)).not.toBe(created);
    const [contact] = (await dataSource.query('SELECT name, tenant_id AS "tenantID" FROM contacts WHERE id = $1', [created])) as object[];
    expect(contact).toEqual({ name: 'Maria', tenantID });
  });

  it("lands in the contact's open session on the inbox, or opens a queued one", async () => {
    const openOf = () => change((runner) => sessions.openSessionOf(runner, scope(), { inboxID, channel: 'whatsapp' }, contactID));
    await newSession({ closedAt: new Date('2026-03-01T00:00:00Z') });

    const opened = await openOf();
    expect(opened).toEqual({ sessionID: expect.any(String), opened: true });
    expect((await sessions.view(scope(), opened.sessionID))!.session).toMatchObject({ operatorID: null, sessionListed: true, queuedAt: expect.any(String), closedAt: null });
    expect(await openOf()).toEqual({ sessionID: opened.sessionID, opened: false });
  });

  it('sweeps sessions closed before the cutoff, oldest first, a batch at a time, with their messages', async () => {
    const old = [await newSession({ closedAt: new Date('2026-01-01T00:00:00Z') }), await newSession({ closedAt: new Date('2026-01-02T00:00:00Z') })];
    const recent = await newSession({ closedAt: new Date('2026-03-01T00:00:00Z') });
    const open = await newSession();
    await conversations.message(tenantID, old[0]);
    const cutoff = new Date('2026-02-01T00:00:00Z');

    // Other files' sessions are not in this database: every session closed before the cutoff is one of these.
    expect(await sessions.deleteClosedBefore(cutoff, 1)).toBe(1);
    expect(await sessions.view(scope(), old[0])).toBeUndefined();
    expect(await sessions.deleteClosedBefore(cutoff, 10)).toBe(1);
    expect(await sessions.deleteClosedBefore(cutoff, 10)).toBe(0);
    expect(await sessions.view(scope(), recent)).toBeDefined();
    expect(await sessions.view(scope(), open)).toBeDefined();
    expect(await dataSource.query('SELECT id FROM messages WHERE session_id = $1', [old[0]])).toEqual([]);
  });

  it('finds by index every row the retention sweep deletes or nulls through a foreign key, so a batch costs its own rows whatever the store holds', async () => {
    // A session's or message's delete reaches these rows by their foreign key's columns; without an index leading with them, each deleted row scans the table.
    const unindexed = await dataSource.query(
      `SELECT c.conname AS name FROM pg_constraint c
        WHERE c.contype = 'f' AND c.confrelid IN ('sessions'::regclass, 'messages'::regclass) AND c.confdeltype IN ('c', 'n')
          AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey::int2[])`,
    );
    expect(unindexed).toEqual([]);
  });
});
