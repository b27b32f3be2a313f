import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import { CampaignFixtures, ConversationFixtures, CustomHostnamesStub, FixtureBuilder, startTestPooler } from '@platform/testing';
import { DataSource } from 'typeorm';
import { BenchContext } from '../context';
import { Footprint, footprintPerRequest, FootprintMeter } from '../footprint';
import { benchNodeVersion, CpuResult, LoadOptions, measureCpu, startApp, StartedApp, stopProcess } from '../harness';
import { rssMebibytesOf } from '../process-usage';
import type { CapturedStatement } from '../sql-capture';
import type { FloorOperation } from '../sql-floor-server';
import { AppLaunch, platformAddresses, platformLaunches, startPlatformApps } from '../support/start-apps';

const CONNECTIONS = 10;
const WARM_UP = 500;
const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 15_000);
/** Operation 1 consumes a connection per request: fewer of them, each a real delete. */
const DELETES = Number(process.env.BENCH_CPU_DELETES ?? 3_000);
const DELETE_WARM_UP = 300;
const ROWS = 60;
const PER_PAGE = 20;
/** Throttled refreshes sent to one domain before moving to the next (its window is 10 s). */
const THROTTLED_BATCH = 2_000;
/** Requests of an operation sent before the one whose SQL is captured, so every cache is as warm as under load. */
const CAPTURE_AFTER = 3;
/** A read operation's CPU per request must stay within this of its floor; operation 1 within FLOOR_TARGET_WRITE of its floors' sum. */
const FLOOR_TARGET_READ = 1.5;
const FLOOR_TARGET_WRITE = 2;

interface Case {
  name: string;
  /** The processes whose CPU time the requests cost. */
  servers: ChildProcess[];
  load: Omit<LoadOptions, 'name'> & { warmUp?: number };
  /** Statuses a single request must answer before the load (none: it would use up a resource). */
  statuses?: number[];
  targetRatio?: number;
  prepare?: () => Promise<void>;
  /** Measure its floor (the same SQL from bare Fastify + pg), within this ratio. */
  floorTarget?: number;
  /** URL of each request sent to capture its SQL, when not the load's (e.g. a delete of a row kept for it). */
  captureUrl?: () => string;
}

/** An operation's floor, summed over the apps its request reaches. */
interface Floor {
  cpuMicrosecondsPerRequest: number;
  /** Statements one request sends, over all apps. */
  statements: number;
  /** Length of the operation's JSON body, which the floor's answers match. */
  bodyBytes: number;
  target: number;
}

interface Row {
  name: string;
  /** Ratio to the Nest hello this row must stay within, if it has a target. */
  targetRatio?: number;
  result: CpuResult;
  footprint: Footprint;
  floor?: Floor;
}

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

interface FloorPart {
  /** Name of the floor server's route replaying it. */
  route: string;
  statements: number;
  bodyBytes: number;
}

/**
 * Starts the apps with sql-capture.js preloaded, sends each operation's
 * request CAPTURE_AFTER times and then once more, and keeps the statements
 * that last request made each app send (its floor parts, one per app that
 * reached PostgreSQL) and the length of its answer's body. Writes them where
 * the floor server reads them, then stops those apps.
 */
async function captureFloors(
  cases: Case[],
  served: AppLaunch[],
  env: Record<string, string>,
): Promise<{ file: string; parts: Map<string, FloorPart[]> }> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const capturing = served.map((app) => ({ ...app, file: join(directory, `${app.name}.jsonl`) }));
  const started: StartedApp[] = [];
  const operations: Record<string, FloorOperation> = {};
  const parts = new Map<string, FloorPart[]>();
  try {
    await startPlatformApps(
      capturing,
      (app, index) => {
        const captureEnv = { ...env, NODE_OPTIONS: `--require ${join(__dirname, '..', 'sql-capture.js')}`, BENCH_SQL_CAPTURE_FILE: capturing[index].file };
        return startApp(`${app.name} (capturing SQL)`, app.script, captureEnv, app.readyUrl);
      },
      started,
    );
    for (const [index, benchCase] of cases.entries()) {
      if (!benchCase.floorTarget) continue;
      const url = benchCase.captureUrl ?? (() => benchCase.load.url);
      const init = { method: benchCase.load.method, headers: benchCase.load.headers };
      for (let sent = 0; sent < CAPTURE_AFTER; sent += 1) await (await fetch(url(), init)).arrayBuffer();
      for (const app of capturing) writeFileSync(app.file, '');
      const target = url();
      const body = Buffer.from(await (await fetch(target, init)).arrayBuffer());
      // Work a request hands on (a transport message to another app) finishes after its answer.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const caseParts: FloorPart[] = [];
      for (const app of capturing) {
        const statements = readFileSync(app.file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CapturedStatement);
        if (!statements.length) continue;
        const route = `${index}-${app.name}`;
        // The app that answered serialises the body; another one's part answers the transport only.
        const bodyBytes = new URL(target).port === String(app.port) ? body.length : 0;
        operations[route] = { statements, bodyBytes };
        caseParts.push({ route, statements: statements.length, bodyBytes });
      }
      parts.set(benchCase.name, caseParts);
    }
  } finally {
    for (const app of started) await stopProcess(app.process);
  }
  const file = join(directory, 'floors.json');
  writeFileSync(file, JSON.stringify(operations));
  return { file, parts };
}

/** CPU per request of an operation's floor: each part replayed by the floor server under the operation's load, summed. */
async function measureFloor(parts: FloorPart[], server: ChildProcess, port: number, load: { warmUp: number; amount: number }, target: number): Promise<Floor> {
  let cpuMicrosecondsPerRequest = 0;
  for (const part of parts) {
    const url = `http://127.0.0.1:${port}/floor/${part.route}`;
    await expectStatus(url, {}, [200]);
    const result = await measureCpu({ name: part.route, servers: [server], connections: CONNECTIONS, url, warmUp: load.warmUp, amount: load.amount });
    cpuMicrosecondsPerRequest += result.cpuMicrosecondsPerRequest;
  }
  return {
    cpuMicrosecondsPerRequest,
    statements: parts.reduce((sum, part) => sum + part.statements, 0),
    bodyBytes: parts.reduce((sum, part) => sum + part.bodyBytes, 0),
    target,
  };
}

async function expectStatus(url: string, init: { method?: string; headers?: Record<string, string> }, statuses: number[]): Promise<void> {
  const response = await fetch(url, init);
  if (!statuses.includes(response.status)) throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${await response.text()}`);
}

function printCpuTable(rows: Row[]): void {
  const hello = rows[0].result;
  const ratioOf = (row: Row) => row.result.cpuMicrosecondsPerRequest / hello.cpuMicrosecondsPerRequest;
  const op15 = rows.find((row) => row.name.startsWith('op 15'));
  const lines = [
    `\nCPU per request of the serving process(es) on Node.js ${benchNodeVersion()}, ${REQUESTS} requests (op 1: ${DELETES}) at ${CONNECTIONS} connections after ${WARM_UP} warm-up requests`,
    '| request | CPU per request | ratio to the hello | target | req/s | non-2xx | bytes per answer |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => {
      const target = row.targetRatio === undefined ? '' : `≤ ${row.targetRatio}x ${ratioOf(row) <= row.targetRatio ? 'met' : 'NOT MET'}`;
      return `| ${row.name} | ${row.result.cpuMicrosecondsPerRequest} µs | ${ratioOf(row).toFixed(1)}x | ${target} | ${row.result.requestsPerSecond} | ${row.result.non2xx} | ${row.result.bytesPerResponse ?? ''} |`;
    }),
  ];
  if (op15) {
    const share = op15.result.requestsPerSecond / hello.requestsPerSecond;
    lines.push(`\nThroughput of op 15 at ${CONNECTIONS} connections: ${Math.round(share * 100)}% of the hello's (target ≥ 35%: ${share >= 0.35 ? 'met' : 'NOT MET'})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Each operation beside its floor: bare Fastify + pg sending the same
 * statements and answering a body of the same size (sql-floor-server.ts),
 * under the same load. For operation 1 the floor is the sum of its two apps'
 * parts; its statements are every app's.
 */
function printFloorTable(rows: Row[]): void {
  const withFloor = rows.filter((row) => row.floor);
  if (!withFloor.length) return;
  const lines = [
    `\nCPU per request against the floor (bare Fastify + pg, ${CONNECTIONS} pooled connections, the operation's own statements and body size)`,
    '| request | CPU per request | floor | ratio to the floor | target | statements | body bytes |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...withFloor.map((row) => {
      const floor = row.floor as Floor;
      const ratio = row.result.cpuMicrosecondsPerRequest / floor.cpuMicrosecondsPerRequest;
      return (
        `| ${row.name} | ${row.result.cpuMicrosecondsPerRequest} µs | ${floor.cpuMicrosecondsPerRequest} µs | ${ratio.toFixed(2)}x | ` +
        `≤ ${floor.target}x ${ratio <= floor.target ? 'met' : 'NOT MET'} | ${floor.statements} | ${floor.bodyBytes} |`
      );
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printFootprintTable(rows: Row[]): void {
  const lines = [
    '\nFootprint per request (warm-up included; PostgreSQL through PgBouncer in transaction mode)',
    '| request | PostgreSQL transactions | PostgreSQL statements | server-connection ms | Redis commands | transport messages |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, footprint: f }) => `| ${name} | ${f.transactions.toFixed(2)} | ${f.queries.toFixed(2)} | ${f.transactionMs.toFixed(3)} | ${f.redisCommands.toFixed(2)} | ${f.transportMessages.toFixed(2)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printApps(apps: StartedApp[]): void {
  const lines = [
    '\n| app | start to ready | CPU until ready | RSS idle | RSS after the load |',
    '|---|---:|---:|---:|---:|',
    ...apps.map((app) => `| ${app.name} | ${app.startToReadyMs} ms | ${app.cpuToReadyMs} ms | ${app.rssIdleMiB} MiB | ${rssMebibytesOf(app.process.pid as number)} MiB |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface SeededData {
  tenantID: string;
  ownerToken: string;
  /** Owner of the tenants of the plain connections operation 1 deletes. */
  removerToken: string;
  campaignModelID: string;
  contactID: string;
  /** Path of each plain connection's DELETE, under its own tenant. */
  plainConnectionPaths: string[];
  pluginAuthorization: string;
  /** Helpdesk domains of the tenant, enough for every throttled batch. */
  hostnames: string[];
  /** Plain connections whose DELETEs capture operation 1's SQL (CAPTURE_AFTER + 1), apart from the load's. */
  capturePaths: string[];
  /** A helpdesk domain whose refreshes capture operation 12's SQL. */
  captureHostname: string;
}

/**
 * One tenant with an owner, ROWS campaign models, shortcuts and sessions of
 * one contact (so each list has full pages), campaigns, unread notifications,
 * the helpdesk plugin with its domains, and DELETES + DELETE_WARM_UP plain
 * connections (one per tenant, each tenant owned by another operator).
 */
async function seed(dataSource: DataSource, coreConfig: CoreTenantsConfig): Promise<SeededData> {
  const fixtures = new FixtureBuilder(dataSource);
  const campaigns = new CampaignFixtures(dataSource);
  const conversations = new ConversationFixtures(dataSource);
  const tenantID = await fixtures.tenant('Bench Atendimento');
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  for (let index = 1; index < 5; index += 1) await fixtures.membership(await fixtures.tenant(`Bench tenant ${index}`), owner.operatorID, 'member');

  const channel = await campaigns.messagingChannel(tenantID);
  await campaigns.campaignModels(tenantID, channel.channelID, ROWS, { prefix: 'order_update' });
  const [{ id: campaignModelID }]: { id: string }[] = await dataSource.query('SELECT id FROM campaign_models WHERE tenant_id = $1 LIMIT 1', [tenantID]);
  for (const status of ['draft', 'scheduled', 'running', 'completed'] as const) await campaigns.campaign(tenantID, status, campaignModelID);

  const inboxID = await conversations.inbox(tenantID);
  const contactID = await conversations.contact(tenantID);
  for (let index = 0; index < ROWS; index += 1) {
    await conversations.shortcut(tenantID, { scope: index % 2 ? 'tenant-based' : 'user-based', operatorID: owner.operatorID, bang: `/resposta${index}`, preview: `Resposta pronta ${index}` });
    const sessionID = await conversations.session(tenantID, { contactID, inboxID, operatorID: owner.operatorID, createdAt: new Date(Date.now() - index * 60_000) });
    await conversations.message(tenantID, sessionID, { value: `Mensagem ${index}` });
    await conversations.summary(tenantID, sessionID, { text: 'Cliente perguntou sobre a entrega.', sentiment: 'neutral' });
    if (index < 10) await conversations.notification(tenantID, { operatorID: owner.operatorID, ...(index % 2 ? { category: 'inbox', inboxID } : { category: 'mention' }) });
  }

  const helpdesk = await fixtures.pluginWithUrn('urn:plugin:helpdesk', 'Central de Ajuda');
  await fixtures.connection(tenantID, helpdesk.pluginID);
  const [{ id: helpCenterID }]: { id: string }[] = await dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [tenantID]);
  const hostnames = Array.from({ length: 3 + Math.ceil((REQUESTS + WARM_UP) / THROTTLED_BATCH) }, (_, index) => `ajuda-${index}.bench-atendimento.com.br`);
  for (const hostname of hostnames) {
    await dataSource.query(`INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname, provider_id) VALUES ($1, $2, $3, $4)`, [tenantID, helpCenterID, hostname, randomUUID()]);
  }

  // Operation 1 deletes one connection per request; a (tenant, plugin) pair has one live connection.
  // Another operator owns those tenants, so the owner's list (operation 15) keeps its five.
  const remover = await fixtures.operator();
  const plain = await fixtures.plugin();
  const connections: { id: string; tenant_id: string }[] = await dataSource.query(
    `WITH made AS (
       INSERT INTO tenants (name) SELECT 'Bench connection tenant ' || g FROM generate_series(1, $1::int) g RETURNING id
     ), owned AS (
       INSERT INTO memberships (tenant_id, operator_id, role) SELECT id, $2, 'owner' FROM made
     )
     INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash)
     SELECT id, $3, 'plain', 'not-a-token-hash' FROM made RETURNING id, tenant_id`,
    [DELETES + DELETE_WARM_UP + CAPTURE_AFTER + 1, remover.operatorID, plain.pluginID],
  );
  const paths = connections.map((connection) => `/v1/tenants/${connection.tenant_id}/plugins/connections/${connection.id}`);
  const { token } = await issueOperatorToken(coreConfig, owner.operatorID);
  const { token: removerToken } = await issueOperatorToken(coreConfig, remover.operatorID);
  return {
    tenantID,
    ownerToken: token,
    removerToken,
    campaignModelID,
    contactID,
    plainConnectionPaths: paths.slice(0, DELETES + DELETE_WARM_UP),
    pluginAuthorization: helpdesk.authorization,
    hostnames: hostnames.slice(0, -1),
    capturePaths: paths.slice(DELETES + DELETE_WARM_UP),
    captureHostname: hostnames[hostnames.length - 1],
  };
}
