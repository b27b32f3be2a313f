import { PluginConnectionFixture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { AppName } from './harness/app-replica';
import { AppClients, FaultPlatform, startFaultPlatform } from './harness/fault-platform';
import { startLoad } from './harness/load';
import { statusAndBody, TypedAnswer } from './harness/typed-answer';
import { HelpdeskTenant, helpdeskTenant } from './helpdesk-tenant';

interface StopUnderLoad<A extends AppName, InFlight> {
  app: A;
  /** One request of the background load, through the balancer's client. */
  load: (api: AppClients[A]) => Promise<TypedAnswer>;
  /** Sends requests straight to the replica `api` reaches and resolves once they are being handled there (held at a provider). */
  startInFlight: (api: AppClients[A]) => Promise<{ release: () => void; answers: Promise<InFlight[]> }>;
}

/**
 * SIGTERM to one of two replicas under load (docs/deployment.md, Shutdown):
 * requests in flight finish with their normal answers, new ones go to the
 * other replica, the stopped replica exits by itself and can start again.
 */
describe('SIGTERM of a replica under load', () => {
  let platform: FaultPlatform;
  let helpdesk: HelpdeskTenant;
  let tenantID: string;
  let owner: string;

  beforeAll(async () => {
    platform = await startFaultPlatform({
      replicas: { 'plugins-helpdesk': 2, 'services-api': 2, 'core-tenants': 1 },
      // Held provider calls must outlast the shutdown, not time out.
      env: { VM_PROVIDER_TIMEOUT_MS: '8000', CORE_TENANTS_RPC_TIMEOUT_MS: '10000', CLOUDFLARE_TIMEOUT_MS: '8000' },
    });
    helpdesk = await helpdeskTenant(platform);
    tenantID = helpdesk.tenantID;
    owner = helpdesk.owner;
  });
  afterAll(() => platform?.close());

  /** Returns the in-flight answers and every load sample. */
  async function stopUnderLoad<A extends AppName, InFlight>({ app, load, startInFlight }: StopUnderLoad<A, InFlight>) {
    const [stopping, remaining] = platform.replicas[app];
    const running = startLoad(platform.balancer(app), load);
    const inFlight = await startInFlight(platform.replica(app, stopping.url));

    stopping.kill('SIGTERM');
    await eventually(async () => expect(await stopping.refusesConnections()).toBe(true));
    inFlight.release();
    const answers = await inFlight.answers;

    const exit = await stopping.exited();
    const exitedAt = Date.now();
    expect(exit.code === 0 || exit.signal === 'SIGTERM', `exit ${JSON.stringify(exit)}\n${stopping.logs()}`).toBe(true);
    await eventually(() => expect(running.samples.filter((sample) => sample.startedAt > exitedAt).length).toBeGreaterThanOrEqual(8));
    const samples = await running.stop();

    expect(samples.filter((sample) => sample.error !== undefined).map((sample) => String(sample.error))).toEqual([]);
    expect(samples.filter((sample) => sample.response!.status !== 200).map((sample) => [sample.response!.status, sample.response!.body])).toEqual([]);
    expect(new Set(samples.map((sample) => sample.response!.servedBy))).toEqual(new Set([stopping.url, remaining.url]));
    expect(samples.filter((sample) => sample.startedAt > exitedAt).every((sample) => sample.response!.servedBy === remaining.url)).toBe(true);

    // Back in rotation after a start, without touching the other replica.
    await stopping.start();
    return { answers, restarted: platform.replica(app, stopping.url) };
  }

  it('plugins-helpdesk: finishes the refreshes in flight with 200, sends the rest to the other replica, loses none', async () => {
    const hostnames = [await helpdesk.addDomain(platform.balancer('plugins-helpdesk').api), await helpdesk.addDomain(platform.balancer('plugins-helpdesk').api)];
    const { answers, restarted } = await stopUnderLoad({
      app: 'plugins-helpdesk',
      load: (api) => helpdesk.list(api),
      async startInFlight(api) {
        const held = hostnames.map(() => platform.stubs.customHostnames.holdNext('get'));
        const answers = Promise.all(hostnames.map((hostname) => helpdesk.refresh(api, hostname)));
        await Promise.all(held.map((hold) => hold.reached));
        return { answers, release: () => held.forEach((hold) => hold.release()) };
      },
    });
    expect(answers.map((answer) => [answer.response.status, answer.data?.domain?.domainHostname])).toEqual(hostnames.map((hostname) => [200, hostname]));
    expect((await helpdesk.list(restarted)).response.status).toBe(200);
  });

  it('services-api: finishes the connection deletions in flight (waiting on core-tenants and the VM provider) with 200, loses none', async () => {
    const connections: (PluginConnectionFixture & { vmID: string })[] = [];
    for (let index = 0; index < 2; index += 1) {
      const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
      const vmID = `vm-${Math.random().toString(36).slice(2)}`;
      platform.stubs.vms.addVm(vmID);
      connections.push({ ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID })), vmID });
    }
    const bearer = { authorization: owner };
    const stats = (api: AppClients['services-api']) => api.GET('/v1/tenants/{tenantID}/campaigns/stats', { params: { path: { tenantID } }, headers: bearer });
    const { answers, restarted } = await stopUnderLoad({
      app: 'services-api',
      load: stats,
      async startInFlight(api) {
        const held = platform.stubs.vms.hold();
        const answers = Promise.all(
          connections.map((connection) =>
            api.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
              params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
              headers: bearer,
            }),
          ),
        );
        await held.reached(connections.length);
        return { answers, release: () => held.release() };
      },
    });
    expect(answers.map(statusAndBody).map(({ status, body }) => [status, body])).toEqual(connections.map(() => [200, { data: { deleted: true } }]));
    for (const connection of connections) expect(platform.stubs.vms.vms.has(connection.vmID)).toBe(false);
    expect((await stats(restarted)).response.status).toBe(200);
  });
});
