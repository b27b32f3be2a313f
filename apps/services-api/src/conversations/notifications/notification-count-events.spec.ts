import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import { OutboxRepository } from '@platform/outbox';
import { OutboxNudges, WebhookEvents } from '@platform/webhooks';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationCountsRepository } from './notification-counts.repository';
import { FanOutNotificationsUseCase } from './fan-out-notifications.use-case';
import { NotificationCountEvents } from './notification-count-events';
import { NotificationFanoutsRepository } from './notification-fanouts.repository';

/** A `notifications.counts` row of the outbox. */
interface CountsRow {
  ordering_key: string;
  data: { operatorID: string; counts: Record<string, number> };
}

/**
 * Against the migrated schema in PostgreSQL: a notification fan-out
 * writes or clears many operators' notifications with one statement, and
 * appends every moved operator's `notifications.counts` in its transaction
 * with one more, each equal to operation 14's read; a fan-out to many
 * operators costs the statements a fan-out to one does.
 */
describe('NotificationCountEvents, with the fan-out and the counts repository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let fanouts: NotificationFanoutsRepository;
  let counts: NotificationCountsRepository;
  let countEvents: NotificationCountEvents;
  let fixtures: FixtureBuilder;
  let conversations: ConversationFixtures;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    fanouts = new NotificationFanoutsRepository(dataSource);
    counts = new NotificationCountsRepository(dataSource);
    // No gateway listens here: the spec reads the outbox's rows.
    const noNudges = { committed: () => undefined } as unknown as OutboxNudges;
    countEvents = new NotificationCountEvents(counts, new WebhookEvents(new OutboxRepository(dataSource), 'services-api', noNudges));
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
  });
  afterAll(() => close?.());

  /** A tenant with `size` members and a listed, queued session on an inbox. */
  const tenantWith = async (size: number) => {
    const tenantID = await fixtures.tenant();
    const operatorIDs: string[] = [];
    for (let index = 0; index < size; index += 1) {
      const { operatorID } = await fixtures.operator();
      await fixtures.membership(tenantID, operatorID, index === 0 ? 'owner' : 'member');
      operatorIDs.push(operatorID);
    }
    const inboxID = await conversations.inbox(tenantID);
    const sessionID = await conversations.session(tenantID, { contactID: await conversations.contact(tenantID), inboxID });
    return { tenantID, scope: trustedTenantScope(tenantID), operatorIDs, inboxID, sessionID };
  };
  const countsEventsOf = async (tenantID: string): Promise<CountsRow[]> =>
    dataSource.query(`SELECT ordering_key, data FROM webhook_events WHERE tenant_id = $1 AND type = 'notifications.counts' ORDER BY occurred_at, id`, [tenantID]);
  const fanOut = () => new FanOutNotificationsUseCase(fanouts, countEvents).execute();
  /** Runs every fan-out due (other tests' included) and answers how many. */
  const fanOutAll = async () => {
    let done = 0;
    while (await fanOut()) done += 1;
    return done;
  };

  it("appends every notified operator's counts, equal to operation 14's read, in the fan-out's transaction; those it did not move get none", async () => {
    const { tenantID, scope, operatorIDs, inboxID, sessionID } = await tenantWith(5);
    const [unmoved, mentioned] = operatorIDs;
    // One operator has an unread notification of the session already (not notified again), another an unread mention.
    await conversations.notification(tenantID, { operatorID: unmoved, category: 'inbox', inboxID, sessionID });
    await conversations.notification(tenantID, { operatorID: mentioned, category: 'mention' });
    await fanouts.transaction((runner) => fanouts.enqueue(runner, scope, sessionID, 'notify'));
    await fanOutAll();

    const events = await countsEventsOf(tenantID);
    expect(events.map((event) => event.data.operatorID).sort()).toEqual(operatorIDs.filter((operatorID) => operatorID !== unmoved).sort());
    for (const event of events) {
      expect(event.ordering_key).toBe(`operator:${event.data.operatorID}`);
      expect(event.data.counts).toEqual(await counts.unreadCounts(scope, event.data.operatorID));
    }
    expect(events.find((event) => event.data.operatorID === mentioned)!.data.counts).toEqual({ [inboxID]: 1, mention: 1 });
  });

  it('appends the counts of every operator a clear lowered, once each, and none of the assignee it kept', async () => {
    const { tenantID, scope, operatorIDs, inboxID, sessionID } = await tenantWith(4);
    const [assignee, twice] = operatorIDs;
    await fanouts.transaction((runner) => fanouts.enqueue(runner, scope, sessionID, 'notify'));
    await fanOutAll();
    // `twice` holds an inbox and an assignment notification of the session: one event.
    await conversations.notification(tenantID, { operatorID: twice, category: 'assignment', sessionID });
    await dataSource.query(`UPDATE sessions SET operator_id = $1 WHERE id = $2`, [assignee, sessionID]);
    await dataSource.query(`DELETE FROM webhook_events WHERE tenant_id = $1`, [tenantID]);
    await fanouts.transaction((runner) => fanouts.enqueue(runner, scope, sessionID, 'clear'));
    await fanOutAll();

    const events = await countsEventsOf(tenantID);
    expect(events.map((event) => event.data.operatorID).sort()).toEqual(operatorIDs.filter((operatorID) => operatorID !== assignee).sort());
    for (const event of events) expect(event.data.counts).toEqual({});
    expect(await counts.unreadCounts(scope, assignee)).toEqual({ [inboxID]: 1 });
  });

  it('announces 40 operators with the statements it takes for one: no query per operator', async () => {
    const { tenantID, scope, operatorIDs } = await tenantWith(40);
    const statementsFor = async (operators: string[]) => {
      const statements: string[] = [];
      await fanouts.transaction(async (runner) => {
        const counting: SqlRunner = {
          query: (text, parameters) => {
            statements.push(text);
            return runner.query(text, parameters);
          },
        };
        await countEvents.announce(counting, scope, operators);
      });
      return statements.length;
    };
    const forOne = await statementsFor(operatorIDs.slice(0, 1));
    expect(await statementsFor(operatorIDs)).toBe(forOne);
    expect((await countsEventsOf(tenantID)).map((event) => event.data)).toEqual([
      { operatorID: operatorIDs[0], counts: {} },
      ...operatorIDs.map((operatorID) => ({ operatorID, counts: {} })),
    ]);
  });
});
