import { ServicesApiClient } from '@platform/api-client';
import { PluginConnectionFixture, singleError } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';
import { TypedAnswer } from './harness/typed-answer';

const CONNECTIONS = 40;

interface Doomed extends PluginConnectionFixture {
  subscriptionItemID?: string;
  vmID?: string;
}

/**
 * A core-tenants replica killed with SIGKILL in the middle of a burst of
 * operation 1 deletes sent through two services-api replicas. Whatever the
 * kill interrupted, every connection ends either removed, with its token
 * refused on every replica and its billing cancelled exactly once, or live,
 * with its token working; never half.
 */
describe('core-tenants killed during a burst of deletes (two replicas each)', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let ownerToken: string;
  const doomed: Doomed[] = [];
  const answers: TypedAnswer[] = [];

  /** Operation 11 accepts connection tokens; an unknown contact is an empty page, so 200 means the token works. */
  const tokenStatusOn = (servicesUrl: string, connection: Doomed) =>
    platform
      .replica('services-api', servicesUrl)
      .GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
        params: { path: { tenantID, contactID: randomUUID() } },
        headers: { authorization: connection.authorization },
      })
      .then(({ response }) => response.status);
  const remove = (services: ServicesApiClient, connection: Doomed) =>
    services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  const statusOf = async (connectionID: string): Promise<string> =>
    (await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connectionID]))[0].status;

  beforeAll(async () => {
    platform = await startFaultPlatform({ replicas: { 'core-tenants': 2, 'services-api': 2 }, env: { CORE_TENANTS_RPC_TIMEOUT_MS: '2000' } });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    for (let index = 0; index < CONNECTIONS; index += 1) {
      if (index % 3 === 0) {
        const plugin = await platform.fixtures.plugin({ kind: 'paid' });
        const subscriptionItemID = `si_${randomUUID()}`;
        platform.stubs.billing.addItem(subscriptionItemID);
        doomed.push({ ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID })), subscriptionItemID });
      } else if (index % 3 === 1) {
        const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
        const vmID = `vm-${randomUUID()}`;
        platform.stubs.vms.addVm(vmID);
        doomed.push({ ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID })), vmID });
      } else {
        doomed.push(await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID));
      }
    }
    // Every replica has every token cached before the burst.
    for (const replica of platform.replicas['services-api']) {
      for (const connection of doomed) expect(await tokenStatusOn(replica.url, connection)).toBe(200);
    }
  });
  afterAll(() => platform?.close());

  it('answers every delete in the envelope while a core-tenants replica dies mid-burst', async () => {
    const balancer = platform.balancer('services-api');
    const [victim] = platform.replicas['core-tenants'];
    // A slow VM provider keeps the hosted deletes in flight, row locks held, when the kill lands.
    platform.stubs.vms.latencyMs = 300;
    let answered = 0;
    const burst = doomed.map((connection) => remove(balancer.api, connection).finally(() => (answered += 1)));
    // Kill once the burst is under way: some deletes done, hosted ones waiting on the VM provider.
    await eventually(() => {
      expect(answered).toBeGreaterThanOrEqual(5);
      expect(platform.stubs.vms.inFlight).toBeGreaterThan(0);
    });
    victim.kill('SIGKILL');
    answers.push(...(await Promise.all(burst)));
    platform.stubs.vms.latencyMs = 0;

    for (const answer of answers) {
      if (answer.response.status === 200) continue;
      // A request the victim had claimed gets no answer: a timeout, in the envelope.
      expect([answer.response.status, singleError(answer.error).error_code]).toEqual([504, 5904]);
    }
    expect(answers.filter((answer) => answer.response.status === 200).length).toBeGreaterThan(0);
  });

  it('leaves every connection whole: removed with its token refused everywhere, or live with its token working', async () => {
    const services = platform.replicas['services-api'].map((replica) => replica.url);
    for (const connection of doomed) {
      const status = await statusOf(connection.pluginConnectionID);
      const expected = status === 'removed' ? 401 : 200;
      expect(status).toMatch(/^(removed|live)$/);
      for (const url of services) expect(await tokenStatusOn(url, connection)).toBe(expected);
    }
    // Every answered 200 is a removal that happened.
    for (const [index, answer] of answers.entries()) {
      if (answer.response.status === 200) expect(await statusOf(doomed[index].pluginConnectionID)).toBe('removed');
    }
  });

  it('cancels the billing of every removed paid connection exactly once, and of no live one', async () => {
    const paid = doomed.filter((connection) => connection.subscriptionItemID);
    const removed: Doomed[] = [];
    for (const connection of paid) if ((await statusOf(connection.pluginConnectionID)) === 'removed') removed.push(connection);

    // A cancellation the killed replica had claimed is retried when its 60 s lease runs out.
    await eventually(() => {
      for (const connection of removed) expect(platform.stubs.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(1);
    }, 75_000);
    for (const connection of paid) {
      if (!removed.includes(connection)) expect(platform.stubs.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(0);
    }
  }, 90_000);

  it('removes the connections left live once asked again, through the surviving replica', async () => {
    for (const connection of doomed) {
      if ((await statusOf(connection.pluginConnectionID)) === 'removed') continue;
      const { response } = await remove(platform.balancer('services-api').api, connection);
      expect(response.status).toBe(200);
    }
    for (const connection of doomed) expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
  });
});
