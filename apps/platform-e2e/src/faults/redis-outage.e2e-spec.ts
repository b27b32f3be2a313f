import { JsonResponse, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { FaultPlatform, PluginsHelpdeskBalancer, startFaultPlatform } from './harness/fault-platform';
import { HelpdeskTenant, helpdeskTenant } from './helpdesk-tenant';
import { RoundRobin, sendOnNewConnection } from './harness/round-robin';

/** What an answer during the outage may be: a success, or an error in the envelope that says "try again". */
function expectDefinedAnswer(response: JsonResponse): void {
  if (response.status < 300) return;
  const error = singleError(response.body);
  expect([response.status, error.error_code]).toEqual([503, 5903]);
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
  let services: RoundRobin;
  let core: RoundRobin;
  let helpdesk: PluginsHelpdeskBalancer;
  let helpdeskOwner: HelpdeskTenant;
  const hostnames: string[] = [];
  let tenantID: string;
  let ownerToken: string;
  const connectionIDs: string[] = [];

  const bearer = () => ({ authorization: `Bearer ${ownerToken}` });
  const deleteConnection = () =>
    services.request(`/v1/tenants/${tenantID}/plugins/connections/${connectionIDs.shift()}`, { method: 'DELETE', headers: bearer() });
  const notifications = () => services.request(`/v1/tenants/${tenantID}/notifications`, { headers: bearer() });
  const tenants = () => core.request('/tenants', { headers: bearer() });
  /** Operation 12 on a domain not refreshed before, so the throttle never refuses it. */
  const refreshDomain = () =>
    helpdesk.request(`${helpdeskOwner.domainPath(hostnames.shift()!)}/refresh`, { method: 'POST', headers: { authorization: helpdeskOwner.owner } });
  const readiness = () =>
    Promise.all(
      [...platform.replicas['services-api'], ...platform.replicas['core-tenants'], ...platform.replicas['plugins-helpdesk']].map((replica) => sendOnNewConnection(replica.url, '/health/ready')),
    );

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
    expect((await deleteConnection()).status).toBe(200);
    expect((await refreshDomain()).status).toBe(200);
    expect((await readiness()).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('answers every request in the envelope while Redis is away, and every replica says it is not ready', async () => {
    await platform.redis.stop();

    const answers: JsonResponse[][] = [];
    for (let round = 0; round < 4; round += 1) {
      answers.push([await deleteConnection(), await notifications(), await tenants(), await refreshDomain()]);
    }
    for (const answer of answers.flat()) expectDefinedAnswer(answer);
    // Operation 1 needs the transport and operation 12 its throttle, which
    // lives in Redis so that replicas share it: neither can succeed without
    // Redis. The reads fall back to PostgreSQL where Redis only holds caches.
    expect(answers.map((round) => round.map((answer) => answer.status))).toEqual([
      [503, 200, 200, 503],
      [503, 200, 200, 503],
      [503, 200, 200, 503],
      [503, 200, 200, 503],
    ]);

    for (const answer of await readiness()) {
      expect(answer.status).toBe(503);
      expect(singleError(answer.body).error_code).toBe(5903);
    }
  });

  it('serves operation 1 on every replica again within seconds of Redis returning, without any restart', async () => {
    await platform.redis.start();

    await eventually(async () => expect((await readiness()).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]), 10_000);
    for (const replica of platform.replicas['services-api']) {
      const response = await sendOnNewConnection(replica.url, `/v1/tenants/${tenantID}/plugins/connections/${connectionIDs.shift()}`, {
        method: 'DELETE',
        headers: bearer(),
      });
      expect(response.status).toBe(200);
    }
    expect((await notifications()).status).toBe(200);
    expect((await tenants()).status).toBe(200);
    expect((await refreshDomain()).status).toBe(200);
  });
});
