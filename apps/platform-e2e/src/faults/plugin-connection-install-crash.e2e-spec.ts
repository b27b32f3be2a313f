import { singleError } from '@platform/testing';
import type { HeldRequests } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

const PAID = 4;
const HOSTED = 4;
/** Far longer than a loaded machine takes from the providers' hold being reached to every replica killed. */
const PROVIDER_TIMEOUT_MS = 8000;
/** Each test kills and restarts every core-tenants replica: on a loaded machine that alone can take most of a minute, like the hooks that start them. */
const RESTARTS_TIMEOUT_MS = 120_000;

/**
 * Installs when core-tenants dies between the provider call and the commit
 * of the connection: a burst of installs whose subscription items and VMs the
 * providers make after every replica was killed. After recovery, every
 * resource the providers made is either referenced by a live connection or
 * released exactly once, and the installs asked again succeed.
 */
describe('core-tenants killed while a burst of installs waits on the providers', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let ownerToken: string;
  const held: HeldRequests[] = [];

  const installThrough = (servicesUrl: string, pluginID: string, idempotencyKey?: string) =>
    platform.replica('services-api', servicesUrl).POST('/v1/tenants/{tenantID}/plugins/connections', {
      params: { path: { tenantID } },
      headers: { authorization: `Bearer ${ownerToken}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: { pluginID },
    });
  const liveResources = async () => {
    const rows: { subscription_item_id: string | null; vm_id: string | null }[] = await platform.dataSource.query(
      `SELECT subscription_item_id, vm_id FROM plugin_connections WHERE tenant_id = $1 AND status = 'live'`,
      [tenantID],
    );
    return { items: rows.flatMap((row) => row.subscription_item_id ?? []), vms: rows.flatMap((row) => row.vm_id ?? []) };
  };
  /** Every item and VM the providers ever made: referenced by a live connection and never released, or released exactly once. */
  const expectNothingUnrecorded = async () => {
    const live = await liveResources();
    for (const item of platform.stubs.billing.created.keys()) {
      expect({ item, cancellations: platform.stubs.billing.successfulCancellations(item) }).toEqual({ item, cancellations: live.items.includes(item) ? 0 : 1 });
    }
    for (const vm of platform.stubs.vms.created.keys()) {
      expect({ vm, deletions: platform.stubs.vms.successfulDeletions(vm) }).toEqual({ vm, deletions: live.vms.includes(vm) ? 0 : 1 });
    }
    const [pending] = await platform.dataSource.query(`SELECT count(*)::int AS n FROM plugin_connection_install_intents WHERE state = 'pending'`);
    expect(pending.n).toBe(0);
    const [open] = await platform.dataSource.query(`SELECT count(*)::int AS n FROM billing_cancellations WHERE completed_at IS NULL`);
    expect(open.n).toBe(0);
  };

  beforeAll(async () => {
    // A held provider call must outlast the kill. With the harness's 500 ms provider timeouts, a
    // loaded machine can take longer than that between core-tenants sending the call and the kill:
    // the replica, still alive, then answers the provider timeout as it should, 502 5002, and the
    // scenario (every replica dead with every call in flight) never happened. The transport waits
    // longer than the providers, as core-tenants requires at boot.
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 2, 'services-api': 1 },
      env: { BILLING_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS), VM_PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS), CORE_TENANTS_RPC_TIMEOUT_MS: '10000' },
    });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(async () => {
    for (const hold of held) hold.release();
    await platform?.close();
  });

  it('leaves every subscription item and VM either on a live connection or released once', async () => {
    const plugins = [
      ...(await Promise.all(Array.from({ length: PAID }, () => platform.fixtures.plugin({ kind: 'paid' })))),
      ...(await Promise.all(Array.from({ length: HOSTED }, () => platform.fixtures.plugin({ kind: 'hosted' })))),
    ];
    // Half the installs carry an Idempotency-Key: their retries reuse the intent's provider keys.
    const keyOf = (index: number) => (index % 2 === 0 ? `burst-${plugins[index].pluginID}` : undefined);
    const cores = platform.replicas['core-tenants'];
    const [services] = platform.replicas['services-api'];

    const billingHeld = platform.stubs.billing.hold();
    const vmsHeld = platform.stubs.vms.hold();
    held.push(billingHeld, vmsHeld);
    const burst = plugins.map((plugin, index) => installThrough(services.url, plugin.pluginID, keyOf(index)));
    await billingHeld.reached(PAID);
    await vmsHeld.reached(HOSTED);
    // Every intent is committed and every provider call is in flight: every replica dies before any commit.
    for (const core of cores) core.kill('SIGKILL');
    for (const core of cores) await core.exited();
    const [pending] = await platform.dataSource.query(`SELECT count(*)::int AS n FROM plugin_connection_install_intents WHERE state = 'pending'`);
    expect(pending.n).toBe(PAID + HOSTED);
    // The providers then make every item and VM, and nobody hears of them.
    billingHeld.release();
    vmsHeld.release();
    await eventually(() => expect([platform.stubs.billing.created.size, platform.stubs.vms.created.size]).toEqual([PAID, HOSTED]));
    for (const core of cores) await core.start();

    // The clients got no answer from core-tenants: a timeout, in the envelope; no connection was written.
    for (const answer of await Promise.all(burst)) {
      const heard = [answer.response.status, singleError(answer.error).error_code];
      expect(heard, 'a 502 5002 is a provider call that timed out before its replica was killed').toEqual([504, 5904]);
    }
    expect((await liveResources()).items).toEqual([]);

    // The reconciler releases what the dead installs made, once each.
    await eventually(expectNothingUnrecorded);
    expect([...platform.stubs.billing.items.keys(), ...platform.stubs.vms.vms.keys()]).toEqual([]);

    // Asked again, every install succeeds; still nothing unrecorded, nothing released twice.
    const again = await Promise.all(plugins.map((plugin, index) => installThrough(services.url, plugin.pluginID, keyOf(index))));
    expect(again.map((answer) => answer.response.status)).toEqual(plugins.map(() => 201));
    const live = await liveResources();
    expect([live.items.length, live.vms.length]).toEqual([PAID, HOSTED]);
    await eventually(expectNothingUnrecorded);
  }, RESTARTS_TIMEOUT_MS);

  it('releases what the providers made when every replica dies with its answer heard and the commit waiting', async () => {
    const plugins = [await platform.fixtures.plugin({ kind: 'paid' }), await platform.fixtures.plugin({ kind: 'hosted' }), await platform.fixtures.plugin({ kind: 'paid' })];
    const cores = platform.replicas['core-tenants'];
    for (const core of cores) if (!core.running) await core.start();
    const [services] = platform.replicas['services-api'];
    const itemsBefore = platform.stubs.billing.created.size;
    const vmsBefore = platform.stubs.vms.created.size;

    // A lock that lets installs read and write their intents, and holds their INSERT of the connection.
    const blocker = platform.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query('LOCK TABLE plugin_connections IN SHARE ROW EXCLUSIVE MODE');
    try {
      const burst = plugins.map((plugin) => installThrough(services.url, plugin.pluginID));
      await eventually(async () => {
        const [waiting] = await platform.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO plugin_connections %'`,
        );
        expect(waiting.n).toBe(plugins.length);
      });
      // Every provider answered and was heard; no connection is committed: every replica dies now.
      expect([platform.stubs.billing.created.size - itemsBefore, platform.stubs.vms.created.size - vmsBefore]).toEqual([2, 1]);
      for (const core of cores) core.kill('SIGKILL');
      for (const core of cores) await core.exited();
      for (const answer of await Promise.all(burst)) expect(answer.response.status).toBe(504);
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }
    for (const core of cores) await core.start();

    await eventually(expectNothingUnrecorded);
    const [connections] = await platform.dataSource.query('SELECT count(*)::int AS n FROM plugin_connections WHERE plugin_id = ANY($1)', [
      plugins.map((plugin) => plugin.pluginID),
    ]);
    expect(connections.n).toBe(0);
  }, RESTARTS_TIMEOUT_MS);
});
