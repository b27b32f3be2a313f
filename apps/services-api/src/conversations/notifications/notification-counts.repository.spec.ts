import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationCountsRepository } from './notification-counts.repository';

/**
 * Operation 14's read against PostgreSQL: one statement for any number of
 * operators, each answered by category, `{}` for nothing unread, read
 * notifications left out, another tenant's counts never crossing over; and
 * an operator's count lock, held to the end of the transaction that took it.
 */
describe('NotificationCountsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let counts: NotificationCountsRepository;
  let fixtures: FixtureBuilder;
  let conversations: ConversationFixtures;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(3));
    counts = new NotificationCountsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
  });
  afterAll(() => close?.());

  it('answers operation 14 for each operator asked, `{}` for one with nothing unread, from one read', async () => {
    const tenantID = await fixtures.tenant();
    const scope = trustedTenantScope(tenantID);
    const [busy, idle] = [(await fixtures.operator()).operatorID, (await fixtures.operator()).operatorID];
    for (const operatorID of [busy, idle]) await fixtures.membership(tenantID, operatorID, 'member');
    const inboxID = await conversations.inbox(tenantID);
    const sessionID = await conversations.session(tenantID, { contactID: await conversations.contact(tenantID), inboxID });
    await conversations.notification(tenantID, { operatorID: busy, category: 'inbox', inboxID, sessionID });
    await conversations.notification(tenantID, { operatorID: busy, category: 'system' });
    await conversations.notification(tenantID, { operatorID: busy, category: 'system', read: true });

    const counted = await counts.unreadCountsOf(scope, [busy, idle]);
    expect(Object.fromEntries(counted)).toEqual({ [busy]: { [inboxID]: 1, system: 1 }, [idle]: {} });
    expect(await counts.unreadCounts(scope, busy)).toEqual({ [inboxID]: 1, system: 1 });
    expect(await counts.unreadCounts(trustedTenantScope(await fixtures.tenant()), busy)).toEqual({});
  });

  it("holds an operator's count lock until the transaction that took it ends: another's lock of them waits for that commit", async () => {
    const scope = trustedTenantScope(await fixtures.tenant());
    const { operatorID } = await fixtures.operator();
    const order: string[] = [];
    let locked!: () => void;
    const firstLocked = new Promise<void>((resolve) => (locked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = dataSource.transaction(async (runner) => {
      await counts.lockOperatorCounts(runner, scope, [operatorID]);
      locked();
      await released;
      order.push('first commits');
    });
    await firstLocked;
    const second = dataSource.transaction(async (runner) => {
      await counts.lockOperatorCounts(runner, scope, [operatorID]);
      order.push('second locked');
    });
    // Released only once PostgreSQL shows the second waiting on an advisory lock.
    const waiting = async () =>
      ((await dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      )) as { waiting: number }[])[0].waiting;
    await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second locked']);
  });
});
