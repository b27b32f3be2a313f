import { performance } from 'node:perf_hooks';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { TransportPing } from '@platform/contracts';
import { createDataSource } from '@platform/database';
import { PlatformMetrics } from '@platform/observability';
import { BillingStub, FixtureBuilder, VmStub } from '@platform/testing';
import { NamespacedRedisClient, TransportClient, transportSettingsOf } from '@platform/transport';
import { BenchContext } from '../context';
import { measure, percentiles, printTable, startProcess, stopProcess, waitForHttp } from '../harness';

const PLAIN_CONNECTIONS = 2_000;
const PINGS = 2_000;
const BILLING_OUTAGE_MS = 10_000;

/**
 * Operation 1 end to end (HTTP, transport, database) on plain connections;
 * one transport round trip alone; and the time from the billing provider's
 * recovery to the cancellation of an item whose removal happened during the outage.
 */
export async function pluginConnections(context: BenchContext): Promise<void> {
  const [corePort, servicesPort, billingPort, vmPort] = [0, 1, 2, 3].map((offset) => context.portBase + offset);
  const billing = await new BillingStub().start(billingPort);
  const vms = await new VmStub().start(vmPort);
  const env = {
    ...context.env,
    CORE_TENANTS_PORT: String(corePort),
    SERVICES_API_PORT: String(servicesPort),
    OPERATOR_JWKS_URL: `http://127.0.0.1:${corePort}/.well-known/jwks.json`,
    BILLING_API_URL: billing.url,
    BILLING_API_KEY: 'sk_test_bench',
    VM_PROVIDER_URL: vms.url,
    VM_PROVIDER_TOKEN: 'bench',
  };

  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const tenantID = await fixtures.tenant('Bench tenant');
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  const plugins = await Promise.all(Array.from({ length: 20 }, () => fixtures.plugin()));
  // One live connection per (tenant, plugin): spread the connections over many tenants of one plugin each.
  const connectionIDs: string[] = [];
  for (let index = 0; index < PLAIN_CONNECTIONS; index += 1) {
    const tenant = index < plugins.length ? tenantID : await fixtures.tenant();
    if (tenant !== tenantID) await fixtures.membership(tenant, owner.operatorID, 'owner');
    connectionIDs.push(`${tenant}/plugins/connections/${(await fixtures.connection(tenant, plugins[index % plugins.length].pluginID)).pluginConnectionID}`);
  }
  const paidPlugin = await fixtures.plugin({ kind: 'paid', billingPriceID: 'price_bench' });
  billing.addItem('si_bench_outage');
  const paid = await fixtures.connection(tenantID, paidPlugin.pluginID, { kind: 'paid', subscriptionItemID: 'si_bench_outage' });
  const { token } = await issueOperatorToken(loadConfig(CoreTenantsConfig, { ...process.env, ...env }), owner.operatorID);
  await dataSource.destroy();

  const core = await startProcess('dist/apps/core-tenants/src/main.js', env);
  const services = await startProcess('dist/apps/services-api/src/main.js', env);
  const metrics = new PlatformMetrics('bench');
  // The apps' own transport settings (namespace and key), read from the environment they were started with.
  const transport = new NamespacedRedisClient(transportSettingsOf(loadConfig(CoreTenantsConfig, { ...process.env, ...env })), metrics);
  try {
    await waitForHttp(`http://127.0.0.1:${corePort}/health/ready`);
    await waitForHttp(`http://127.0.0.1:${servicesPort}/health/ready`);

    let next = 0;
    const deletes = await measure({
      name: `DELETE plain connection, end to end (${PLAIN_CONNECTIONS} deletes, 8 connections)`,
      url: `http://127.0.0.1:${servicesPort}`,
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
      amount: PLAIN_CONNECTIONS,
      connections: 8,
      nextPath: () => `/v1/tenants/${connectionIDs[next++ % connectionIDs.length]}`,
    });
    printTable('Operation 1 (services-api -> Redis transport -> core-tenants -> PostgreSQL)', [deletes]);

    const client = new TransportClient(transport, 5_000, metrics);
    const samples: number[] = [];
    for (let index = 0; index < PINGS; index += 1) {
      const started = performance.now();
      await client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'bench' });
      samples.push(performance.now() - started);
    }
    const ping = percentiles(samples);
    process.stdout.write(`\nTransport round trip alone (${PINGS} sequential pings): p50 ${ping.p50} ms, p99 ${ping.p99} ms\n`);

    billing.failWithStatus = 503;
    const removal = await fetch(`http://127.0.0.1:${servicesPort}/v1/tenants/${tenantID}/plugins/connections/${paid.pluginConnectionID}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise((resolve) => setTimeout(resolve, BILLING_OUTAGE_MS));
    const recoveredAt = performance.now();
    billing.failWithStatus = undefined;
    while (billing.successfulCancellations('si_bench_outage') === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    process.stdout.write(
      `\nBilling outage of ${BILLING_OUTAGE_MS / 1000} s during a paid removal (answered ${removal.status}): canceled ` +
        `${Math.round(performance.now() - recoveredAt)} ms after the provider came back ` +
        `(default retry schedule: 2 s doubling, capped at 60 s; failed attempts: ${billing.callsTo('DELETE', '/v1/subscription_items/si_bench_outage').length - 1})\n`,
    );
  } finally {
    await transport.close();
    await stopProcess(services);
    await stopProcess(core);
    await billing.stop();
    await vms.stop();
  }
}
