import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssigneeFilter, QueueState } from './inbox-session-filters';
import { InboxSessionsRepository, pageStatement, QueuedSession, QueueVisibility } from './inbox-sessions.repository';

const HOUR = 3_600_000;

/**
 * An inbox's queue against PostgreSQL: the order by activity (last message
 * or last change), each state and assignee filter, operation 11's
 * visibility rule, keyset pages, the counts, nothing of another inbox or
 * tenant, and the plan of a page over a large inbox.
 */
describe('InboxSessionsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let sessions: InboxSessionsRepository;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let operatorA: string;
  let operatorB: string;
  let connectionID: string;
  let otherConnectionID: string;
  const ids = { takenRecently: '', repliedToQueued: '', newQueued: '', unlistedOfB: '', closed: '' };

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    sessions = new InboxSessionsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    operatorA = (await fixtures.operator()).operatorID;
    operatorB = (await fixtures.operator()).operatorID;
    connectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    otherConnectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connectionID });
    const otherInboxID = await conversations.inbox(tenantID, { pluginConnectionID: otherConnectionID });
    const contactID = await conversations.contact(tenantID);
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
    // Created long ago, taken by A half an hour ago: its change is its latest activity.
    ids.takenRecently = await conversations.session(tenantID, { contactID, inboxID, operatorID: operatorA, createdAt: at(4) });
    await dataSource.query(`UPDATE sessions SET updated_at = $2 WHERE id = $1`, [ids.takenRecently, at(0.5)]);
    // Created 5 hours ago, its last message an hour ago.
    ids.repliedToQueued = await conversations.session(tenantID, { contactID, inboxID, createdAt: at(5) });
    await conversations.message(tenantID, ids.repliedToQueued, { createdAt: at(1) });
    ids.newQueued = await conversations.session(tenantID, { contactID, inboxID, createdAt: at(2) });
    ids.unlistedOfB = await conversations.session(tenantID, { contactID, inboxID, listed: false, operatorID: operatorB, createdAt: at(3) });
    ids.closed = await conversations.session(tenantID, { contactID, inboxID, createdAt: at(6), closedAt: at(5.5) });
    await dataSource.query(`UPDATE sessions SET updated_at = closed_at, active = false WHERE id = $1`, [ids.closed]);
    // Newer than all, but on another inbox or tenant: never in this inbox's queue.
    await conversations.session(tenantID, { contactID, inboxID: otherInboxID, createdAt: at(0.1) });
    const otherInbox = await conversations.inbox(otherTenantID);
    await conversations.session(otherTenantID, { contactID: await conversations.contact(otherTenantID), inboxID: otherInbox, createdAt: at(0.1) });
  });
  afterAll(() => close?.());

  const operator = (operatorID: string): QueueVisibility => ({ kind: 'operator', operatorID });
  const connection = (pluginConnectionID: string): QueueVisibility => ({ kind: 'pluginConnection', pluginConnectionID });
  const idsOf = (found: QueuedSession[]) => found.map((queued) => queued.session.sessionID);
  const list = async (visibility: QueueVisibility, filters: { state?: QueueState; assignee?: AssigneeFilter } = {}, scope = trustedTenantScope(tenantID)) =>
    idsOf(await sessions.page(scope, inboxID, visibility, filters, undefined, 10));

  it('lists the most recently active first (last message or last change), as each viewer may see them', async () => {
    expect(await list(operator(operatorA))).toEqual([ids.takenRecently, ids.repliedToQueued, ids.newQueued, ids.closed]);
    expect(await list(operator(operatorB))).toEqual([ids.takenRecently, ids.repliedToQueued, ids.newQueued, ids.unlistedOfB, ids.closed]);
    expect(await list(connection(connectionID))).toEqual([ids.takenRecently, ids.repliedToQueued, ids.newQueued, ids.unlistedOfB, ids.closed]);
    // The rule itself, not only the route's inbox check: another connection sees none of this inbox.
    expect(await list(connection(otherConnectionID))).toEqual([]);
  });

  it('filters by state and by assignee', async () => {
    const b = operator(operatorB);
    expect(await list(b, { state: 'queued' })).toEqual([ids.repliedToQueued, ids.newQueued]);
    expect(await list(b, { state: 'assigned' })).toEqual([ids.takenRecently, ids.unlistedOfB]);
    expect(await list(b, { state: 'open' })).toEqual([ids.takenRecently, ids.repliedToQueued, ids.newQueued, ids.unlistedOfB]);
    expect(await list(b, { state: 'closed' })).toEqual([ids.closed]);
    expect(await list(b, { assignee: { kind: 'operator', operatorID: operatorB } })).toEqual([ids.unlistedOfB]);
    expect(await list(b, { assignee: { kind: 'unassigned' } })).toEqual([ids.repliedToQueued, ids.newQueued, ids.closed]);
    expect(await list(b, { state: 'open', assignee: { kind: 'unassigned' } })).toEqual([ids.repliedToQueued, ids.newQueued]);
    expect(await list(b, { assignee: { kind: 'someone' } })).toEqual([ids.takenRecently, ids.unlistedOfB]);
    // A's view of B's sessions leaves out the unlisted one A may not see.
    expect(await list(operator(operatorA), { assignee: { kind: 'operator', operatorID: operatorB } })).toEqual([]);
    expect(await list(operator(operatorA), { assignee: { kind: 'someone' } })).toEqual([ids.takenRecently]);
  });

  it('pages by keyset: each page starts strictly after the previous page\'s last position, to the end', async () => {
    const scope = trustedTenantScope(tenantID);
    const b = operator(operatorB);
    const first = await sessions.page(scope, inboxID, b, {}, undefined, 2);
    expect(idsOf(first)).toEqual([ids.takenRecently, ids.repliedToQueued]);
    expect(first[1].position).toEqual({ at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), id: ids.repliedToQueued });
    const second = await sessions.page(scope, inboxID, b, {}, first[1].position, 2);
    expect(idsOf(second)).toEqual([ids.newQueued, ids.unlistedOfB]);
    const last = await sessions.page(scope, inboxID, b, {}, second[1].position, 2);
    expect(idsOf(last)).toEqual([ids.closed]);
    expect(await sessions.page(scope, inboxID, b, {}, last[0].position, 2)).toEqual([]);
  });

  it("answers each session in operation 11's shape with its state", async () => {
    const [taken] = await sessions.page(trustedTenantScope(tenantID), inboxID, operator(operatorA), { assignee: { kind: 'operator', operatorID: operatorA } }, undefined, 1);
    expect(taken.session).toMatchObject({ sessionID: ids.takenRecently, tenantID, inboxID, operatorID: operatorA, sessionState: 'assigned', closedAt: null, lastMessage: null });
    const [closed] = await sessions.page(trustedTenantScope(tenantID), inboxID, operator(operatorA), { state: 'closed' }, undefined, 1);
    expect(closed.session).toMatchObject({ sessionID: ids.closed, sessionState: 'closed', sessionActive: false });
  });

  it("counts the open sessions each viewer may see; another tenant's scope reads nothing", async () => {
    const scope = trustedTenantScope(tenantID);
    expect(await sessions.counts(scope, inboxID, operator(operatorA))).toEqual({ queued: 2, assigned: 1, open: 3, mine: 1 });
    expect(await sessions.counts(scope, inboxID, operator(operatorB))).toEqual({ queued: 2, assigned: 2, open: 4, mine: 1 });
    expect(await sessions.counts(scope, inboxID, connection(connectionID))).toEqual({ queued: 2, assigned: 2, open: 4, mine: null });
    expect(await sessions.counts(scope, inboxID, connection(otherConnectionID))).toEqual({ queued: 0, assigned: 0, open: 0, mine: null });
    const foreign = trustedTenantScope(otherTenantID);
    expect(await sessions.counts(foreign, inboxID, operator(operatorA))).toEqual({ queued: 0, assigned: 0, open: 0, mine: 0 });
    expect(await list(operator(operatorA), {}, foreign)).toEqual([]);
  });

  it('walks an index in activity order from the cursor over a large inbox, never sorting it', async () => {
    const bigInbox = await new ConversationFixtures(dataSource).inbox(tenantID, { pluginConnectionID: connectionID });
    const contactID = await new ConversationFixtures(dataSource).contact(tenantID, 'Ana Lima');
    // 20,000 sessions, one in fifty open: an inbox with a long past.
    await dataSource.query(
      `INSERT INTO sessions (tenant_id, contact_id, inbox_id, channel, type, listed, last_activity_at, created_at, updated_at, closed_at, active)
       SELECT $1, $2, $3, 'whatsapp', 'chat', n % 7 <> 0, now() - n * interval '1 minute', now() - n * interval '1 minute', now() - n * interval '1 minute',
              CASE WHEN n % 50 = 0 THEN NULL ELSE now() END, n % 50 = 0
         FROM generate_series(1, 20000) AS n`,
      [tenantID, contactID, bigInbox],
    );
    await dataSource.query('ANALYZE sessions');
    const plan = async (state: QueueState | undefined) => {
      const statement = pageStatement('operator', { state });
      const explained: { 'QUERY PLAN': string }[] = await dataSource.query(`EXPLAIN ${statement.text}`, [
        tenantID, bigInbox, new Date(Date.now() - 1000 * 60_000).toISOString(), '00000000-0000-4000-8000-000000000000', 51, operatorA,
      ]);
      return explained.map((line) => line['QUERY PLAN']).join('\n');
    };
    const everything = await plan(undefined);
    expect(everything).toContain('sessions_inbox_activity_idx');
    const queued = await plan('queued');
    expect(queued).toContain('sessions_inbox_open_activity_idx');
    // The page is the index's order from the cursor, cut at the limit: no sort of the inbox's sessions.
    for (const text of [everything, queued]) expect(text, text).not.toMatch(/\bSort\b/);
  });
});
