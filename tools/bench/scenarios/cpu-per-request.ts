import type { ChildProcess } from 'node:child_process';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import { CustomHostnamesStub, startTestPooler } from '@platform/testing';
import { BenchContext } from '../context';
import { footprintPerRequest, FootprintMeter } from '../footprint';
import { measureCpu, startApp, StartedApp, stopProcess } from '../harness';
import { platformAddresses, platformLaunches, startPlatformApps } from '../support/start-apps';
import { captureFloors, Case, expectStatus, measureFloor } from './cpu-per-request/load';
import { printApps, printCpuTable, printFloorTable, printFootprintTable, Row } from './cpu-per-request/report';
import { seed } from './cpu-per-request/seed';
import { CONNECTIONS, DELETE_WARM_UP, DELETES, FLOOR_TARGET_READ, FLOOR_TARGET_WRITE, PER_PAGE, REQUESTS, THROTTLED_BATCH, WARM_UP } from './cpu-per-request/settings';

/**
 * CPU per request of every measured operation, as the apps run by default
 * (LOG_LEVEL info, production's sampled access log, tokens checked against core-tenants' JWKS), beside a bare
 * NestJS-on-Fastify "hello" started by this script, at the same connection
 * count, as ratios to it. CPU time (user + system) of the serving processes is
 * read from /proc before and after the requests, so other work on the machine
 * does not change it. Also: each app's start-to-ready time and RSS idle and
 * after the load, and each request's footprint (PostgreSQL transactions,
 * statements and server-connection time, counted by a PgBouncer in
 * transaction mode the apps reach PostgreSQL through; Redis commands and
 * transport messages), which `capacity-model.js` turns into pods and connections.
 * And each operation's floor (docs/benchmarks-cpu.md): the statements one of
 * its requests sends, captured from the apps (sql-capture.ts) and replayed by
 * bare Fastify + pg (sql-floor-server.ts) under the same load, with its ratio.
 */
export async function cpuPerRequest(context: BenchContext): Promise<void> {
  const [helloPort, fastifyPort, corePort, servicesPort, helpdeskPort, sandboxPort, floorPort] = [0, 1, 2, 3, 4, 5, 6].map((offset) => context.portBase + offset);
  const ports = { core: corePort, services: servicesPort, helpdesk: helpdeskPort };
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}/client/v4`;
  const sandbox = await CustomHostnamesStub.start({ apiToken: 'bench-api-token', zoneID: 'bench-zone', autoAdvance: false, port: sandboxPort });
  const pooler = await startTestPooler(context.databaseUrl);
  const database = new URL(context.databaseUrl).pathname.slice(1);
  const pooledUrl = Object.assign(new URL(pooler.url), { pathname: `/${database}` }).toString();
  const env = {
    ...context.env,
    DATABASE_URL: pooledUrl,
    LOG_LEVEL: 'info',
    // Production's access log (docs/observability.md): errors, slow requests and a 5% sample.
    ACCESS_LOG: process.env.BENCH_ACCESS_LOG ?? 'sample:0.05',
    ...platformAddresses(ports),
    BILLING_API_URL: 'http://127.0.0.1:9',
    BILLING_API_KEY: 'sk_test_bench',
    VM_PROVIDER_URL: 'http://127.0.0.1:9',
    VM_PROVIDER_TOKEN: 'bench',
    WHATSAPP_API_BASE_URL: 'http://127.0.0.1:9',
    HELPDESK_PLUGIN_URN: 'urn:plugin:helpdesk',
    CLOUDFLARE_BASE_URL: sandboxUrl,
    CLOUDFLARE_API_TOKEN: 'bench-api-token',
    CLOUDFLARE_ZONE_ID: 'bench-zone',
  };
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const data = await seed(dataSource, loadConfig(CoreTenantsConfig, { ...process.env, ...env }));
  await dataSource.destroy();

  const apps: StartedApp[] = [];
  const served = platformLaunches(ports);
  const owner = { authorization: `Bearer ${data.ownerToken}` };
  const api = `http://127.0.0.1:${servicesPort}/v1/tenants/${data.tenantID}`;
  const domains = `/helpdesk/v1/tenants/${data.tenantID}/helpdesk/domains`;
  const helpdeskInit = { method: 'POST', headers: { authorization: data.pluginAuthorization } };
  // A domain's first refresh reaches the provider; every later one within its 10 s window is 429 1121.
  const firstDomainUrl = `http://127.0.0.1:${helpdeskPort}${domains}/${data.hostnames[0]}/refresh`;
  // The load moves to a fresh domain every THROTTLED_BATCH requests, well within a window.
  let refreshes = 0;
  const throttledPath = () => `${domains}/${data.hostnames[1 + Math.floor(refreshes++ / THROTTLED_BATCH)]}/refresh`;
  let next = 0;
  let captured = 0;
  const casesFor = ([hello, fastify, core, services, helpdesk]: ChildProcess[]): Case[] => [
    { name: 'Nest on Fastify hello (the 1x)', servers: [hello], load: { url: `http://127.0.0.1:${helloPort}/hello` }, statuses: [200] },
    { name: 'bare Fastify hello (reference)', servers: [fastify], load: { url: `http://127.0.0.1:${fastifyPort}/hello` }, statuses: [200] },
    { name: 'services-api /health/live', servers: [services], load: { url: `http://127.0.0.1:${servicesPort}/health/live` }, statuses: [200] },
    {
      name: 'op 15 GET /tenants (owner token)',
      servers: [core],
      load: { url: `http://127.0.0.1:${corePort}/tenants`, headers: owner },
      statuses: [200],
      targetRatio: 3,
      floorTarget: FLOOR_TARGET_READ,
    },
    { name: 'op 14 notifications', servers: [services], load: { url: `${api}/notifications`, headers: owner }, statuses: [200], targetRatio: 3, floorTarget: FLOOR_TARGET_READ },
    { name: 'op 6 campaign stats', servers: [services], load: { url: `${api}/campaigns/stats`, headers: owner }, statuses: [200], targetRatio: 3, floorTarget: FLOOR_TARGET_READ },
    {
      name: 'op 5 one campaign model',
      servers: [services],
      load: { url: `${api}/campaigns-models/${data.campaignModelID}`, headers: owner },
      statuses: [200],
      targetRatio: 3,
      floorTarget: FLOOR_TARGET_READ,
    },
    {
      name: `op 4 campaign models, page 1 of ${PER_PAGE}`,
      servers: [services],
      load: { url: `${api}/campaigns-models?perPage=${PER_PAGE}`, headers: owner },
      statuses: [206],
      targetRatio: 5,
      floorTarget: FLOOR_TARGET_READ,
    },
    {
      name: `op 7 shortcuts, page 1 of ${PER_PAGE}`,
      servers: [services],
      load: { url: `${api}/operators/shortcuts?perPage=${PER_PAGE}`, headers: owner },
      statuses: [206],
      targetRatio: 5,
      floorTarget: FLOOR_TARGET_READ,
    },
    {
      name: `op 11 contact sessions, page 1 of ${PER_PAGE}`,
      servers: [services],
      load: { url: `${api}/contacts/${data.contactID}/sessions?perPage=${PER_PAGE}`, headers: owner },
      statuses: [206],
      targetRatio: 5,
      floorTarget: FLOOR_TARGET_READ,
    },
    {
      name: 'op 12 refresh, throttled (429; one in 2,000 reaches the provider)',
      servers: [helpdesk],
      // Right before the load, so the first domain's window is still open when its status is checked.
      prepare: () => expectStatus(firstDomainUrl, helpdeskInit, [200]),
      load: { url: firstDomainUrl, method: 'POST', headers: helpdeskInit.headers, nextPath: throttledPath },
      statuses: [429],
      targetRatio: 3,
      floorTarget: FLOOR_TARGET_READ,
      // A domain of its own, refreshed before (its first refresh reaches the provider) and then throttled.
      captureUrl: () => `http://127.0.0.1:${helpdeskPort}${domains}/${data.captureHostname}/refresh`,
    },
    {
      name: 'op 1 delete a plain connection (services-api + core-tenants)',
      servers: [services, core],
      load: {
        url: `http://127.0.0.1:${servicesPort}`,
        method: 'DELETE',
        headers: { authorization: `Bearer ${data.removerToken}` },
        warmUp: DELETE_WARM_UP,
        amount: DELETES,
        nextPath: () => data.plainConnectionPaths[next++],
      },
      targetRatio: 10,
      floorTarget: FLOOR_TARGET_WRITE,
      // Connections kept apart for the capture, so the load's stay untouched.
      captureUrl: () => `http://127.0.0.1:${servicesPort}${data.capturePaths[captured++]}`,
    },
  ];
  const only = process.env.BENCH_CPU_ONLY;
  // BENCH_CPU_ONLY="op 14" measures the hello and the rows whose names contain it (e.g. to profile one operation).
  const wanted = (benchCase: Case, index: number) => !only || index === 0 || benchCase.name.includes(only);
  let floorServer: ChildProcess | undefined;
  try {
    const floors = await captureFloors(casesFor([]).filter(wanted), served, env);
    floorServer = (
      await startApp('floor (Fastify + pg)', 'dist/tools/bench/sql-floor-server.js', { PORT: String(floorPort), DATABASE_URL: pooledUrl, BENCH_FLOOR_FILE: floors.file }, `http://127.0.0.1:${floorPort}/hello`)
    ).process;
    apps.push(await startApp('Nest on Fastify hello', 'dist/tools/bench/nest-hello-server.js', { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/hello`));
    apps.push(await startApp('Fastify hello', 'dist/tools/bench/hello-server.js', { PORT: String(fastifyPort) }, `http://127.0.0.1:${fastifyPort}/hello`));
    await startPlatformApps(served, (app) => startApp(app.name, app.script, env, app.readyUrl), apps);

    const meter = await FootprintMeter.open(pooler.url, context.redisUrl, database);
    const rows: Row[] = [];
    for (const benchCase of casesFor(apps.map((app) => app.process)).filter(wanted)) {
      await benchCase.prepare?.();
      if (benchCase.statuses) await expectStatus(benchCase.load.url, { method: benchCase.load.method, headers: benchCase.load.headers }, benchCase.statuses);
      const before = await meter.read();
      const load = { warmUp: WARM_UP, amount: REQUESTS, ...benchCase.load };
      const result = await measureCpu({ name: benchCase.name, servers: benchCase.servers, connections: CONNECTIONS, ...load });
      const footprint = footprintPerRequest(before, await meter.read(), load.warmUp + load.amount);
      const parts = floors.parts.get(benchCase.name);
      const floor = parts && benchCase.floorTarget ? await measureFloor(parts, floorServer, floorPort, load, benchCase.floorTarget) : undefined;
      rows.push({ name: benchCase.name, targetRatio: benchCase.targetRatio, result, footprint, floor });
    }
    await meter.close();

    printCpuTable(rows);
    printFloorTable(rows);
    printFootprintTable(rows);
    printApps(apps);
  } finally {
    for (const app of apps.reverse()) await stopProcess(app.process);
    if (floorServer) await stopProcess(floorServer);
    await sandbox.close();
    await pooler.stop();
  }
}
