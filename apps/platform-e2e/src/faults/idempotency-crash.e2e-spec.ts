import { HeldRequests } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../idempotency/idempotency-support';
import { eventually, WAIT_LIMIT_MS } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

/**
 * A services-api replica killed while it runs an install under an
 * Idempotency-Key (docs/idempotency.md, Leases): the key stays claimed until
 * its lease lapses, then a retry with the same parameters runs again and its
 * answer is the one kept.
 */
describe('services-api killed during an install under an Idempotency-Key', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let owner: string;
  let held: HeldRequests | undefined;

  beforeAll(async () => {
    // The VM call waits longer than the test holds it, so the install completes once released.
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 1, 'services-api': 2 },
      env: { IDEMPOTENCY_LEASE_SECONDS: '5', VM_PROVIDER_TIMEOUT_MS: '3000', CORE_TENANTS_RPC_TIMEOUT_MS: '10000' },
    });
    tenantID = await platform.fixtures.tenant();
    const { operatorID } = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, operatorID, 'owner');
    owner = `Bearer ${await platform.tokenFor(operatorID)}`;
  });
  afterAll(async () => {
    held?.release();
    await platform?.close();
  });

  it('answers 409 1981 while the lease runs, then runs the retry, whose answer (409 1950: installed meanwhile) is kept', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const key = randomUUID();
    const [dying, surviving] = platform.replicas['services-api'];
    const install = (url: string) => postJson(`${url}/v1/tenants/${tenantID}/plugins/connections`, owner, key, { pluginID: plugin.pluginID });
    const connections = async () =>
      Number((await platform.dataSource.query('SELECT count(*) AS n FROM plugin_connections WHERE plugin_id = $1', [plugin.pluginID]))[0].n);

    held = platform.stubs.vms.hold();
    const lost = install(dying.url).then(
      () => 'answered',
      () => 'connection lost',
    );
    await held.reached(1);
    dying.kill('SIGKILL');
    await dying.exited();
    expect(await lost).toBe('connection lost');

    const busy = await install(surviving.url);
    expect([busy.status, busy.json.errors[0].error_code, busy.headers.get('retry-after')]).toEqual([409, 1981, '1']);

    // core-tenants finishes the install for a replica that is gone.
    held.release();
    await eventually(async () => expect(await connections()).toBe(1));

    let retried: Awaited<ReturnType<typeof install>> | undefined;
    await eventually(async () => {
      retried = await install(surviving.url);
      expect(retried.json.errors[0].error_code).not.toBe(1981);
    }, WAIT_LIMIT_MS, 250);
    expect([retried!.status, retried!.json.errors[0].error_code]).toEqual([409, 1950]);
    expect(retried!.headers.get('idempotent-replayed')).toBeNull();

    await dying.start();
    const replay = await install(dying.url);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([409, retried!.text, 'true']);
    expect(await connections()).toBe(1);
  });
});
