import { FixtureBuilder, generateTestSigningKey, signOperatorToken } from '@platform/testing';
import { createDataSource, runMigrations } from '@platform/database';
import { Client, Pool } from 'pg';
import { BenchContext, databaseExists, databaseUrlNamed, recreateDatabase } from '../../context';
import { startProcess, stopProcess, waitForHttp } from '../../harness';
import { measureInbound, measureReads, measureRetention, readCases } from './load';
import { explainKeyStatements, reportLoad, reportRetention, reportSizes } from './report';
import { seed, seeded, VIEWER } from './seed';

const say = (text: string) => process.stdout.write(`${text}\n`);

/** The sizes run when --messages is not given: the kept 10M database beside a small one. */
const DEFAULT_SIZES = [100_000, 10_000_000];

/**
 * The conversation store at size (docs/conversations.md#growth): for each
 * size (`--messages N[,M]`), a database of its own (bench_messages_100k,
 * bench_messages_10m, ...) seeded once and kept: later runs reuse it
 * (`--reseed` seeds again). Then, through services-api's HTTP stack, with its
 * CPU per request from /proc: a session's message pages, operation 11, the
 * inbox queue, search and inbound posts; the retention sweep's rate and the
 * reads' latency beside it; the tables' and indexes' sizes and the key
 * statements' plans.
 */
export async function messagesAtSize(context: BenchContext): Promise<void> {
  const sizes = context.options.messages ? context.options.messages.split(',').map(Number) : DEFAULT_SIZES;
  for (const size of sizes) {
    if (!Number.isInteger(size) || size < 1_000) throw new Error(`--messages: a whole number of at least 1,000, not ${size}`);
    say(`\n### ${size.toLocaleString('en')} messages\n`);
    const databaseUrl = await preparedDatabase(context, size, context.options.reseed !== undefined);
    await measureAt(context, databaseUrl, size);
  }
}

function databaseName(size: number): string {
  return size % 1_000_000 === 0 ? `bench_messages_${size / 1_000_000}m` : size % 1_000 === 0 ? `bench_messages_${size / 1_000}k` : `bench_messages_${size}`;
}

async function preparedDatabase(context: BenchContext, size: number, reseed: boolean): Promise<string> {
  const name = databaseName(size);
  // A database whose seed never finished (no bench_seed row) is made again.
  const kept = !reseed && (await databaseExists(context.databaseUrl, name)) && (await isSeeded(databaseUrlNamed(context.databaseUrl, name)));
  const databaseUrl = kept ? databaseUrlNamed(context.databaseUrl, name) : await recreateDatabase(context.databaseUrl, name);
  await runMigrations(databaseUrl);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const data = await seeded(client);
    if (data) say(`${name}: kept, seeded with ${data.messages.toLocaleString('en')} messages in ${data.sessions.toLocaleString('en')} sessions (seed took ${data.seedSeconds.toLocaleString('en')} s)`);
    else await seed(client, size, say);
  } finally {
    await client.end();
  }
  return databaseUrl;
}

async function isSeeded(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await seeded(client)) !== undefined;
  } finally {
    await client.end();
  }
}

async function measureAt(context: BenchContext, databaseUrl: string, size: number): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const data = (await seeded(client))!;
  // A fresh plugin connection for the inbox each run: its token is known only when it is made.
  const dataSource = createDataSource({ url: databaseUrl, poolSize: 1, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const plugin = await fixtures.plugin({ name: 'Bench channel' });
  const connection = await fixtures.connection(data.bigTenantID, plugin.pluginID);
  await client.query('UPDATE inboxes SET plugin_connection_id = $1 WHERE id = $2', [connection.pluginConnectionID, data.inboxID]);
  await dataSource.destroy();

  const key = generateTestSigningKey();
  const operator = `Bearer ${await signOperatorToken(key.privateKey, VIEWER, { expiresInSeconds: 3600 })}`;
  const port = context.portBase;
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...context.env, DATABASE_URL: databaseUrl, SERVICES_API_PORT: String(port), OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem };
  const api = await startProcess('dist/apps/services-api/src/main.js', env);
  try {
    await waitForHttp(`${baseUrl}/health/ready`, 90_000);
    await reportSizes(client);
    const cases = await readCases(baseUrl, data, operator);
    const reads = await measureReads(baseUrl, cases, api);
    const inbound = await measureInbound(baseUrl, data, connection.authorization, api);
    reportLoad(size, [...reads, inbound]);
    const retentionReads = cases.filter((read) => /first page|page 1|boleto/.test(read.name));
    reportRetention(await measureRetention(databaseUrl, baseUrl, retentionReads));
    await explainKeyStatements(pool, data);
  } finally {
    await stopProcess(api);
    await pool.end();
    await client.end();
  }
}
