import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactSessionsRepository } from './contact-sessions.repository';

const HOUR = 3_600_000;

/**
 * Operation 11's SQL against PostgreSQL: who sees which of a contact's
 * sessions (the trigger-kept counts plus an operator's unlisted ones, a plugin
 * connection's on its own inboxes only), the
 * page and its count in one statement, the row mapping with the last message
 * and the summary, and nothing of another tenant's.
 */
describe('ContactSessionsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let sessions: ContactSessionsRepository;
  let tenantID: string;
  let otherTenantID: string;
  let contactID: string;
  let assignedID: string;
  let participantID: string;
  let connectionID: string;
  let otherConnectionID: string;
  const ids: Record<'newestUnlistedOfParticipant' | 'unlistedOfAssigned' | 'listedWithMessage' | 'oldestListed', string> = {
    newestUnlistedOfParticipant: '',
    unlistedOfAssigned: '',
    listedWithMessage: '',
    oldestListed: '',
  };

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    sessions = new ContactSessionsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    assignedID = (await fixtures.operator()).operatorID;
    participantID = (await fixtures.operator()).operatorID;
    contactID = await conversations.contact(tenantID);
    connectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    otherConnectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    const inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connectionID });
    const otherInboxID = await conversations.inbox(tenantID, { pluginConnectionID: otherConnectionID });
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
    ids.newestUnlistedOfParticipant = await conversations.session(tenantID, { contactID, inboxID, listed: false, participants: [participantID], createdAt: at(1) });
    ids.unlistedOfAssigned = await conversations.session(tenantID, { contactID, inboxID, listed: false, operatorID: assignedID, createdAt: at(2) });
    ids.listedWithMessage = await conversations.session(tenantID, { contactID, inboxID, createdAt: at(3), closedAt: at(2.5) });
    await conversations.message(tenantID, ids.listedWithMessage, { createdAt: at(3), value: { text: 'Olá!' } });
    await conversations.summary(tenantID, ids.listedWithMessage, { topic: 'billing' });
    ids.oldestListed = await conversations.session(tenantID, { contactID, inboxID: otherInboxID, createdAt: at(4) });
    // Another contact's session, seen by nobody asking about this contact.
    await conversations.session(tenantID, { contactID: await conversations.contact(tenantID, 'João Lima'), inboxID, createdAt: at(0.5) });
  });
  afterAll(() => close?.());

  const all = { kind: 'all' } as const;
  const operator = (operatorID: string) => ({ kind: 'operator', operatorID }) as const;
  const connection = (pluginConnectionID: string) => ({ kind: 'pluginConnection', pluginConnectionID }) as const;
  const idsOf = (found: { sessionID: string }[]) => found.map((session) => session.sessionID);

  it('counts every session for a plugin, and the listed ones plus their own unlisted ones for an operator', async () => {
    const scope = trustedTenantScope(tenantID);
    expect(await sessions.countVisible(scope, contactID, all)).toBe(4);
    expect(await sessions.countVisible(scope, contactID, operator(assignedID))).toBe(3);
    expect(await sessions.countVisible(scope, contactID, operator(participantID))).toBe(3);
    expect(await sessions.countVisible(trustedTenantScope(otherTenantID), contactID, all)).toBe(0);
  });

  it('pages the sessions most recently active first, with the count of what the viewer sees, in its tenant only', async () => {
    const scope = trustedTenantScope(tenantID);
    const everything = await sessions.pageWithCount(scope, contactID, all, { offset: 0, limit: 10 });
    expect([everything.totalCount, idsOf(everything.data)]).toEqual([4, [ids.newestUnlistedOfParticipant, ids.unlistedOfAssigned, ids.listedWithMessage, ids.oldestListed]]);
    const assigned = await sessions.pageWithCount(scope, contactID, operator(assignedID), { offset: 0, limit: 10 });
    expect([assigned.totalCount, idsOf(assigned.data)]).toEqual([3, [ids.unlistedOfAssigned, ids.listedWithMessage, ids.oldestListed]]);
    const middle = await sessions.pageWithCount(scope, contactID, all, { offset: 1, limit: 2 });
    expect([middle.totalCount, idsOf(middle.data)]).toEqual([4, [ids.unlistedOfAssigned, ids.listedWithMessage]]);
    expect(await sessions.pageWithCount(scope, contactID, all, { offset: 10, limit: 10 })).toEqual({ totalCount: 4, data: [] });
    expect(await sessions.pageWithCount(trustedTenantScope(otherTenantID), contactID, all, { offset: 0, limit: 10 })).toEqual({ totalCount: 0, data: [] });
  });

  it("lists and counts a plugin connection the sessions of its own inboxes only, whoever else sees them", async () => {
    const scope = trustedTenantScope(tenantID);
    const mine = await sessions.pageWithCount(scope, contactID, connection(connectionID), { offset: 0, limit: 10 });
    expect([mine.totalCount, idsOf(mine.data)]).toEqual([3, [ids.newestUnlistedOfParticipant, ids.unlistedOfAssigned, ids.listedWithMessage]]);
    expect(await sessions.countVisible(scope, contactID, connection(connectionID))).toBe(3);
    const theOthers = await sessions.pageWithCount(scope, contactID, connection(otherConnectionID), { offset: 0, limit: 10 });
    expect([theOthers.totalCount, idsOf(theOthers.data)]).toEqual([1, [ids.oldestListed]]);
    expect(await sessions.countVisible(scope, contactID, connection(otherConnectionID))).toBe(1);
  });

  it('answers each session camelCase, with its last message and its summary when it has them', async () => {
    const { data } = await sessions.pageWithCount(trustedTenantScope(tenantID), contactID, all, { offset: 2, limit: 2 });
    expect(data[0]).toEqual({
      sessionID: ids.listedWithMessage,
      tenantID,
      contactID,
      inboxID: expect.any(String),
      operatorID: null,
      operatorParticipantsIDs: [],
      sessionChannel: 'whatsapp',
      sessionType: 'chat',
      sessionActive: true,
      sessionListed: true,
      sessionLastMessageID: expect.any(String),
      lastMessage: { messageDirection: 'inbound', messageKey: 'text', messageStatus: 0, messageValue: { text: 'Olá!' } },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      closedAt: expect.any(String),
      manualAt: null,
      queuedAt: null,
      sessionSummary: { topic: 'billing' },
    });
    expect(data[1]).toMatchObject({ sessionID: ids.oldestListed, sessionLastMessageID: null, lastMessage: null, closedAt: null });
    expect(data[1]).not.toHaveProperty('sessionSummary');
  });
});
