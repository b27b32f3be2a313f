import { createPluginsHelpdeskApp, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPluginsHelpdeskClient, createServicesApiClient, PluginsHelpdeskClient, ServicesApiClient } from '@platform/api-client';
import { standingInvalidationChannel, StandingInvalidations } from '@platform/auth';
import { loadConfig } from '@platform/config';
import { createTestRedis, OperatorFixture, TEST_REDIS_URL, testRedisNodes } from '@platform/testing';
import { transportNamespaceOf } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';

const HELPDESK_URN = 'urn:plugin:helpdesk';

async function listening(app: NestFastifyApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

/**
 * Removal and role changes reach every replica at once: two replicas of
 * services-api and two of plugins-helpdesk, each keeping operator standings
 * in process, all see the change on the very next request of a token that
 * is still valid (docs/security.md, Immediate revocation of a membership).
 */
describe('membership changes across replicas of services-api and plugins-helpdesk', () => {
  let platform: TestPlatform;
  const extraApps: NestFastifyApplication[] = [];
  let services: ServicesApiClient[];
  let helpdesks: PluginsHelpdeskClient[];
  let tenantID: string;
  let owner: OperatorFixture;
  let ownerBearer: string;

  const membersSeenBy = (client: ServicesApiClient, authorization: string) =>
    client.GET('/v1/tenants/{tenantID}/operators', { params: { path: { tenantID } }, headers: { authorization } });
  const invitationsSeenBy = (client: ServicesApiClient, authorization: string) =>
    client.GET('/v1/tenants/{tenantID}/operators/invitations', { params: { path: { tenantID } }, headers: { authorization } });
  const domainsSeenBy = (client: PluginsHelpdeskClient, authorization: string) =>
    client.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID } }, headers: { authorization } });

  /** Each replica answers the operator twice, so its standing is kept in process there. */
  async function warmEveryReplica(authorization: string, expected: number): Promise<void> {
    for (let round = 0; round < 2; round += 1) {
      for (const client of services) expect((await membersSeenBy(client, authorization)).response.status).toBe(expected);
      for (const client of helpdesks) expect((await domainsSeenBy(client, authorization)).response.status).toBe(expected);
    }
  }

  beforeAll(async () => {
    platform = await startPlatform();
    const services2 = await createServicesApiApp(loadConfig(ServicesApiConfig, platform.env));
    const helpdesk2 = await createPluginsHelpdeskApp(loadConfig(PluginsHelpdeskConfig, platform.env));
    extraApps.push(services2, helpdesk2);
    services = [platform.api.services, createServicesApiClient(await listening(services2))];
    helpdesks = [platform.api.helpdesk, createPluginsHelpdeskClient(await listening(helpdesk2))];
    // Every replica listens for forgotten standings before the tests rely on it.
    for (const app of [platform.apps['services-api']!, services2, platform.apps['plugins-helpdesk']!, helpdesk2]) {
      await eventually(() => expect(app.get(StandingInvalidations).listening).toBe(true));
    }

    const { fixtures } = platform;
    tenantID = await fixtures.tenant('Acme Atendimento');
    const helpdesk = await fixtures.plugin({ name: 'Central de ajuda', urn: HELPDESK_URN });
    await fixtures.connection(tenantID, helpdesk.pluginID);
    owner = await fixtures.operator();
    await fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerBearer = `Bearer ${await platform.tokenFor(owner.operatorID)}`;
    // First requests of each replica (routes, the helpdesk plugin's id) before the timed checks: a cached standing lives 5 s.
    await warmEveryReplica(ownerBearer, 200);
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await platform.close();
  });

  it('keeps standings in process: a membership deleted behind the apps\' back is still served from the caches', async () => {
    // The control for the tests below: without the invalidation, a cached standing outlives its row.
    const member = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, member.operatorID, 'member');
    const bearer = `Bearer ${await platform.tokenFor(member.operatorID)}`;
    await warmEveryReplica(bearer, 200);
    await platform.dataSource.query('DELETE FROM memberships WHERE tenant_id = $1 AND operator_id = $2', [tenantID, member.operatorID]);
    for (const client of services) expect((await membersSeenBy(client, bearer)).response.status).toBe(200);
    for (const client of helpdesks) expect((await domainsSeenBy(client, bearer)).response.status).toBe(200);
  });

  it('refuses a removed member on every replica on their next request, their token still valid', async () => {
    const member = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, member.operatorID, 'member');
    const bearer = `Bearer ${await platform.tokenFor(member.operatorID)}`;
    await warmEveryReplica(bearer, 200);

    const removed = await services[0].DELETE('/v1/tenants/{tenantID}/operators/{operatorID}', {
      params: { path: { tenantID, operatorID: member.operatorID } },
      headers: { authorization: ownerBearer },
    });
    expect(removed.response.status).toBe(200);

    // No waiting: the first request after the answer, on each replica.
    for (const client of services) expect((await membersSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
    for (const client of helpdesks) expect((await domainsSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
  });

  it('takes owner rights away on every replica on the next request after a demotion', async () => {
    const second = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, second.operatorID, 'owner');
    const bearer = `Bearer ${await platform.tokenFor(second.operatorID)}`;
    for (const client of services) {
      expect((await invitationsSeenBy(client, bearer)).response.status).toBe(200);
      expect((await invitationsSeenBy(client, bearer)).response.status).toBe(200);
    }

    const demoted = await services[1].PATCH('/v1/tenants/{tenantID}/operators/{operatorID}', {
      params: { path: { tenantID, operatorID: second.operatorID } },
      body: { role: 'member' },
      headers: { authorization: ownerBearer },
    });
    expect(demoted.response.status).toBe(200);

    for (const client of services) {
      expect((await invitationsSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
      // Still a member: reading the team is allowed.
      expect((await membersSeenBy(client, bearer)).response.status).toBe(200);
    }
  });

  it('refuses an owner standing copied from Redis before a demotion and written back after it, a forget signal published by hand', async () => {
    const second = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, second.operatorID, 'owner');
    const bearer = `Bearer ${await platform.tokenFor(second.operatorID)}`;
    for (const client of services) expect((await invitationsSeenBy(client, bearer)).response.status).toBe(200);
    const attacker = createTestRedis({ maxRetriesPerRequest: 1 });
    try {
      const key = `auth:v2:standing:${tenantID}:operator:${second.operatorID}`;
      const copy = await attacker.get(key);
      expect(copy).toMatch(/\.owner$/);

      const demoted = await services[0].PATCH('/v1/tenants/{tenantID}/operators/{operatorID}', {
        params: { path: { tenantID, operatorID: second.operatorID } },
        body: { role: 'member' },
        headers: { authorization: ownerBearer },
      });
      expect(demoted.response.status).toBe(200);

      // The copy's seal still verifies; the unsigned signal makes every replica drop what it kept in process.
      await attacker.set(key, copy!, 'PX', 5_000);
      await attacker.publish(standingInvalidationChannel(transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! })), `${tenantID} operator:${second.operatorID}`);
      for (const client of services) expect((await invitationsSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
    } finally {
      attacker.disconnect();
    }
  });

  it('admits an operator at once on accepting an invitation: their first request after, on every replica of both apps, is 200', async () => {
    const invitee = await platform.fixtures.operator();
    const bearer = `Bearer ${await platform.tokenFor(invitee.operatorID)}`;
    // Every replica has answered "not a member", and keeps that answer for its 5 s.
    await warmEveryReplica(bearer, 403);
    const { token } = await platform.fixtures.invitation(tenantID, invitee.email, { invitedBy: owner.operatorID });

    const accepted = await services[0].POST('/v1/operators/invitations/acceptance', { body: { invitationToken: token }, headers: { authorization: bearer } });
    expect(accepted.response.status).toBe(200);

    // No waiting: the first request after the answer, on each replica.
    for (const client of services) expect((await membersSeenBy(client, bearer)).response.status).toBe(200);
    for (const client of helpdesks) expect((await domainsSeenBy(client, bearer)).response.status).toBe(200);
  });

  it("refuses a removed member on a replica whose listening connection was cut: it keeps no copy it could not hear about", async () => {
    const member = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, member.operatorID, 'member');
    const bearer = `Bearer ${await platform.tokenFor(member.operatorID)}`;
    await warmEveryReplica(bearer, 200);

    // Cut one services-api replica's listening connection (Redis closes it; it reconnects by itself).
    // Every node's clients: on a cluster each listener is connected to one node of its own.
    const nodes = await testRedisNodes({ maxRetriesPerRequest: 1 }, { replicas: true });
    try {
      const listeners = (
        await Promise.all(
          nodes.map(async (node) =>
            String(await node.call('CLIENT', 'LIST'))
              .trim()
              .split('\n')
              // The listener's name; on a cluster, ioredis's sharded subscriber connection prefixes it.
              // This test Redis database's only: other environments may share the server.
              .filter((line) => / name=(ioredis-cluster\(ssubscriber\):)?services-api:standings /.test(line) && line.includes(` db=${new URL(TEST_REDIS_URL).pathname.slice(1) || '0'} `))
              .map((line) => ({ node, id: /^id=(\d+)/.exec(line)![1] })),
          ),
        )
      ).flat();
      expect(listeners.length).toBeGreaterThanOrEqual(2);
      await listeners[0].node.call('CLIENT', 'KILL', 'ID', listeners[0].id);
    } finally {
      for (const node of nodes) node.disconnect();
    }
    const removed = await services[0].DELETE('/v1/tenants/{tenantID}/operators/{operatorID}', {
      params: { path: { tenantID, operatorID: member.operatorID } },
      headers: { authorization: ownerBearer },
    });
    expect(removed.response.status).toBe(200);
    for (const client of services) expect((await membersSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
    for (const client of helpdesks) expect((await domainsSeenBy(client, bearer)).error).toMatchObject({ errors: [{ error_code: 1004 }] });
  });
});
