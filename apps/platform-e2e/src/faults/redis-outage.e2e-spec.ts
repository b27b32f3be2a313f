import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { CoreTenantsBalancer, FaultPlatform, PluginsHelpdeskBalancer, ServicesApiBalancer, startFaultPlatform } from './harness/fault-platform';
import { HelpdeskTenant, helpdeskTenant } from './helpdesk-tenant';

/** What an answer during the outage may be: a success, or an error in the envelope that says "try again". */
function expectDefinedAnswer({ response, error }: { response: Response; error?: unknown }): void {
  if (response.status < 300) return;
  expect([response.status, singleError(error).error_code]).toEqual([503, 5903]);
}

/**
 * Redis, which carries the transport, caches and rate limits, stops while
 * requests flow through two replicas of each app, and comes back: every
 * answer meanwhile is defined, readiness says the replicas cannot serve, and
 * everything works again within seconds of Redis returning, without
 * restarting any app.
 */
describe('a Redis outage while requests flow (two replicas each)', () => {
  let platform: FaultPlatform;
  let services: ServicesApiBalancer;
  let core: CoreTenantsBalancer;
  let helpdesk: PluginsHelpdeskBalancer;
  let helpdeskOwner: HelpdeskTenant;
  const hostnames: string[] = [];
  let tenantID: string;
  let ownerToken: string;
  const connectionIDs: string[] = [];

  const bearer = () => ({ authorization: `Bearer ${ownerToken}` });
  const deleteConnection = () =>
    services.api.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID: connectionIDs.shift()! } },
      headers: bearer(),
    });
  const notifications = () => services.api.GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID } }, headers: bearer() });
  const tenants = () => core.api.GET('/tenants', { headers: bearer() });
  /** Operation 12 on a domain not refreshed before, so the throttle never refuses it. */
  const refreshDomain = () => helpdeskOwner.refresh(helpdesk.api, hostnames.shift()!);
  /** Every replica's readiness answer: services-api's, then core-tenants', then plugins-helpdesk's. */
  const readiness = () =>
    Promise.all([
      ...platform.replicas['services-api'].map((replica) => platform.replica('services-api', replica.url).GET('/health/ready')),
      ...platform.replicas['core-tenants'].map((replica) => platform.replica('core-tenants', replica.url).GET('/health/ready')),
      ...platform.replicas['plugins-helpdesk'].map((replica) => platform.replica('plugins-helpdesk', replica.url).GET('/health/ready')),
    ]);
  const statuses = (answers: { response: Response }[]) => answers.map((answer) => answer.response.status);

  beforeAll(async () => {
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 2, 'services-api': 2, 'plugins-helpdesk': 2 },
      env: { CORE_TENANTS_RPC_TIMEOUT_MS: '1000' },
    });
    services = platform.balancer('services-api');
    core = platform.balancer('core-tenants');
    helpdesk = platform.balancer('plugins-helpdesk');
    helpdeskOwner = await helpdeskTenant(platform);
    for (let index = 0; index < 8; index += 1) hostnames.push(await helpdeskOwner.addDomain(helpdesk.api));
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    for (let index = 0; index < 20; index += 1) {
      connectionIDs.push((await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID)).pluginConnectionID);
    }
  });
  afterAll(() => platform?.close());

  it('works before the outage', async () => {
    expect((await deleteConnection()).response.status).toBe(200);
    expect((await refreshDomain()).response.status).toBe(200);
    expect(statuses(await readiness())).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('answers every request in the envelope while Redis is away, and every replica says it is not ready', async () => {
    await platform.redis.stop();

    const answers: { response: Response; error?: unknown }[][] = [];
    for (let round = 0; round < 4; round += 1) {
      answers.push([await deleteConnection(), await notifications(), await tenants(), await refreshDomain()]);
    }
    for (const answer of answers.flat()) expectDefinedAnswer(answer);
    // Operation 1 needs the transport and operation 12 its throttle, which
    // lives in Redis so that replicas share it: neither can succeed without
    // Redis. The reads fall back to PostgreSQL where Redis only holds caches.
    expect(answers.map(statuses)).toEqual([
      [503, 200, 200, 503],
      [503, 200, 200, 503],
      [503, 200, 200, 503],
      [503, 200, 200, 503],
    ]);

    for (const answer of await readiness()) {
      expect(answer.response.status).toBe(503);
      expect(singleError(answer.error).error_code).toBe(5903);
    }
  });

  it('serves operation 1 on every replica again within seconds of Redis returning, without any restart', async () => {
    await platform.redis.start();

    await eventually(async () => expect(statuses(await readiness())).toEqual([200, 200, 200, 200, 200, 200]));
    for (const replica of platform.replicas['services-api']) {
      const { response } = await platform.replica('services-api', replica.url).DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
        params: { path: { tenantID, pluginConnectionID: connectionIDs.shift()! } },
        headers: bearer(),
      });
      expect(response.status).toBe(200);
    }
    expect((await notifications()).response.status).toBe(200);
    expect((await tenants()).response.status).toBe(200);
    expect((await refreshDomain()).response.status).toBe(200);
  });
});
