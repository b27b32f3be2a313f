import { ConversationFixtures, singleError, withTableMissing } from '@platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { describeStandardRefusals } from '../support/standard-refusals';

type Category = 'inbox' | 'mention' | 'assignment' | 'system';

interface Made {
  id: string;
  tenantID: string;
  operatorID: string;
  key: string;
  read: boolean;
}

describe('GET /v1/tenants/:tenantID/notifications (operation 14)', () => {
  let platform: TestPlatform;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let operatorIDs: string[];
  let inboxIDs: string[];
  let otherInboxID: string;
  let outsiderToken: string;
  const made: Made[] = [];

  const countsWith = (headers: Record<string, string>, tenant = tenantID) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID: tenant } }, headers });
  const counts = async (operatorID: string, tenant = tenantID) => countsWith({ authorization: `Bearer ${await platform.tokenFor(operatorID)}` }, tenant);

  /** The counts the endpoint should answer, done here from what the test made. */
  const expected = (operatorID: string, tenant = tenantID) => {
    const result: Record<string, number> = {};
    for (const notification of made) {
      if (notification.operatorID !== operatorID || notification.tenantID !== tenant || notification.read) continue;
      result[notification.key] = (result[notification.key] ?? 0) + 1;
    }
    return result;
  };

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['services-api'] });
    const { fixtures } = platform;
    conversations = new ConversationFixtures(platform.dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    operatorIDs = [];
    for (let index = 0; index < 3; index += 1) {
      const operator = await fixtures.operator();
      await fixtures.membership(tenantID, operator.operatorID, index === 0 ? 'owner' : 'member');
      operatorIDs.push(operator.operatorID);
    }
    // The first operator belongs to the other tenant too, with notifications there.
    await fixtures.membership(otherTenantID, operatorIDs[0], 'member');
    const outsider = await fixtures.operator();
    await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
    outsiderToken = await platform.tokenFor(outsider.operatorID);
    inboxIDs = [await conversations.inbox(tenantID, { name: 'WhatsApp' }), await conversations.inbox(tenantID, { name: 'Chat do site', channel: 'webchat' })];
    otherInboxID = await conversations.inbox(otherTenantID);

    // A random but reproducible mix of operators, tenants, categories, inboxes and read states.
    const plan = fc.sample(
      fc.record({
        operator: fc.integer({ min: 0, max: 2 }),
        otherTenant: fc.boolean(),
        category: fc.constantFrom<Category>('inbox', 'mention', 'assignment', 'system'),
        inbox: fc.integer({ min: 0, max: 1 }),
        read: fc.boolean(),
      }),
      { numRuns: 120, seed: 1414 },
    );
    for (const step of plan) {
      const inTenant = step.otherTenant && step.operator === 0 ? otherTenantID : tenantID;
      const inboxID = step.category === 'inbox' ? (inTenant === tenantID ? inboxIDs[step.inbox] : otherInboxID) : undefined;
      const operatorID = operatorIDs[step.operator];
      const id = await conversations.notification(inTenant, { operatorID, category: step.category, inboxID, read: step.read });
      made.push({ id, tenantID: inTenant, operatorID, key: inboxID ?? step.category, read: step.read });
    }
  });
  afterAll(() => platform.close());

  it('answers each operator\'s unread counts by category, equal to counting the notifications', async () => {
    for (const operatorID of operatorIDs) {
      const response = await counts(operatorID);
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual(expected(operatorID));
    }
    expect(Object.keys(expected(operatorIDs[0]))).toEqual(expect.arrayContaining([inboxIDs[0], inboxIDs[1], 'mention', 'assignment', 'system']));
  });

  it('counts per tenant: the same operator elsewhere has other counts', async () => {
    const response = await counts(operatorIDs[0], otherTenantID);
    expect(response.response.status).toBe(200);
    expect(response.data!).toEqual(expected(operatorIDs[0], otherTenantID));
    expect(Object.keys(response.data!).length).toBeGreaterThan(0);
  });

  it('follows reads, new notifications and deletions', async () => {
    const operatorID = operatorIDs[1];
    const unread = made.filter((notification) => notification.operatorID === operatorID && !notification.read);
    const toRead = unread.slice(0, 5);
    await platform.dataSource.query('UPDATE notifications SET read_at = now() WHERE id = ANY ($1)', [toRead.map((notification) => notification.id)]);
    for (const notification of toRead) notification.read = true;
    const toDelete = made.filter((notification) => notification.operatorID === operatorID && !notification.read).slice(0, 3);
    await platform.dataSource.query('DELETE FROM notifications WHERE id = ANY ($1)', [toDelete.map((notification) => notification.id)]);
    made.splice(0, made.length, ...made.filter((notification) => !toDelete.includes(notification)));
    const id = await conversations.notification(tenantID, { operatorID, category: 'mention' });
    made.push({ id, tenantID, operatorID, key: 'mention', read: false });

    const response = await counts(operatorID);
    expect(response.data!).toEqual(expected(operatorID));
  });

  it('answers an empty object to an operator with nothing unread', async () => {
    const quiet = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, quiet.operatorID, 'member');
    await conversations.notification(tenantID, { operatorID: quiet.operatorID, category: 'system', read: true });
    const response = await counts(quiet.operatorID);
    expect(response.response.status).toBe(200);
    expect(response.data!).toEqual({});
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/notifications',
    client: () => platform.api.services,
    tenantID: () => tenantID,
    valid: async () => `Bearer ${await platform.tokenFor(operatorIDs[0])}`,
    outsider: () => `Bearer ${outsiderToken}`,
    invalid: async () => {
      const plugin = await platform.fixtures.plugin();
      await platform.fixtures.connection(tenantID, plugin.pluginID);
      return [plugin.authorization];
    },
  });

  describe('errors', () => {
    it('is 500 5999 without internals when the database fails', async () => {
      await withTableMissing(platform.dataSource, 'notification_unread_counts', async () => {
        const response = await counts(operatorIDs[0]);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({
          statusCode: 500,
          error: 'UnknownError',
          error_code: 5999,
          message: 'For some unknown reason your request has not succeeded.',
        });
        expect(JSON.stringify(response.error)).not.toContain('notification');
      });
    });
  });
});
