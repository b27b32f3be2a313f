import {
  ContactSessionsRepository,
  ListContactSessionsUseCase,
  ListShortcutsUseCase,
  NotificationCountsRepository,
  ShortcutsRepository,
} from '@apps/services-api';
import { trustedTenantScope } from '@platform/auth';
import { generateTestSigningKey, signOperatorToken } from '@platform/testing';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { BenchContext } from '../context';
import { CpuResult, LoadResult, measureCpu, printScaleCheck, printTable, startProcess, stopProcess, waitForHttp } from '../harness';
import { passedAccessCheck } from '../passed-access-check';
import { measureBare } from './bare-load';
import { FULL_SCALE, loadConversationTenant, LoadedTenant, SMALL_SCALE } from './conversations-data';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 8);
const CONNECTIONS = 16;
/** services-api's default DATABASE_POOL_SIZE: the bare runs use a pool of the same size. */
const POOL_SIZE = 10;

interface Case {
  name: string;
  path: string;
  authorization: string;
  /** The same use case the endpoint runs, through a bare pg pool. */
  bare: () => Promise<unknown>;
}

/** A DataSource stand-in for the repositories: plain pg, recording each statement for EXPLAIN. */
function bareDataSource(pool: Pool, recorded?: { sql: string; parameters: unknown[] }[]): DataSource {
  return {
    query: async (sql: string, parameters: unknown[] = []) => {
      recorded?.push({ sql, parameters });
      return (await pool.query(sql, parameters)).rows;
    },
  } as unknown as DataSource;
}

/**
 * Operations 7, 11 and 14 at the issue's scale: one tenant with 100,000
 * shortcuts (300 operators), 1,000,000 sessions (one contact has 5,000) and
 * 1,000,000 notifications, beside a tenant with 1,000 of each. Each request is
 * measured through HTTP and as bare SQL through a pool of the same size, and
 * each statement is shown with its EXPLAIN ANALYZE plan.
 */
export async function conversations(context: BenchContext): Promise<void> {
  const port = context.portBase;
  const client = new Client({ connectionString: context.databaseUrl });
  await client.connect();
  const say = (text: string) => process.stdout.write(`${text}\n`);
  let big: LoadedTenant;
  let small: LoadedTenant;
  try {
    const started = performance.now();
    big = await loadConversationTenant(client, 'Bench big tenant', FULL_SCALE);
    small = await loadConversationTenant(client, 'Bench small tenant', SMALL_SCALE);
    const loadedMs = Math.round(performance.now() - started);
    const vacuumStarted = performance.now();
    // Index-only scans need the visibility map; production autovacuum keeps it current.
    await client.query('VACUUM ANALYZE shortcuts, shortcut_counts, sessions, contact_session_counts, messages, session_summaries, notifications, notification_unread_counts');
    say(`\nData load (big tenant, ms): ${JSON.stringify(big.timings)}`);
    say(`Data load total ${loadedMs} ms (both tenants), VACUUM ANALYZE ${Math.round(performance.now() - vacuumStarted)} ms`);
  } finally {
    await client.end();
  }

  const key = generateTestSigningKey();
  const tokenOf = async (operatorID: string) => `Bearer ${await signOperatorToken(key.privateKey, operatorID, { expiresInSeconds: 3600 })}`;
  const pool = new Pool({ connectionString: context.databaseUrl, max: POOL_SIZE });
  const shortcutsOf = (dataSource: DataSource) => new ListShortcutsUseCase(passedAccessCheck, new ShortcutsRepository(dataSource));
  const sessionsOf = (dataSource: DataSource) => new ListContactSessionsUseCase(passedAccessCheck, new ContactSessionsRepository(dataSource));
  const shortcuts = shortcutsOf(bareDataSource(pool));
  const sessions = sessionsOf(bareDataSource(pool));
  const notifications = new NotificationCountsRepository(bareDataSource(pool));

  const bigViewer = { tenantID: big.tenantID, operatorID: big.operatorIDs[0] };
  const smallViewer = { tenantID: small.tenantID, operatorID: small.operatorIDs[0] };
  const operatorOf = (operatorID: string) => ({ kind: 'operator' as const, operatorID });
  /** Operation 7 for a viewer, as the HTTP request would ask it. */
  const listShortcuts = (use: ListShortcutsUseCase, viewer: typeof bigViewer, page: number, search?: string) =>
    use.execute({ principal: operatorOf(viewer.operatorID), tenantID: viewer.tenantID, search, page: { page, perPage: 20 } });
  /** Operation 11 for the viewer operator. */
  const listSessions = (use: ListContactSessionsUseCase, tenant: typeof big, viewer: typeof bigViewer, page: number) =>
    use.execute({ principal: operatorOf(viewer.operatorID), tenantID: tenant.tenantID, contactID: tenant.targetContactID, page: { page, perPage: 50 } });
  const bigVisible = (await listShortcuts(shortcuts, bigViewer, 1)).meta.totalCount;
  const deepShortcutPage = Math.ceil(bigVisible / 20) - 1;
  const middleShortcutPage = Math.ceil(bigVisible / 40);
  const visibleSessions = (await listSessions(sessions, big, bigViewer, 1)).meta.totalCount;
  const deepSessionPage = Math.ceil(visibleSessions / 50) - 1;
  const bigToken = await tokenOf(bigViewer.operatorID);
  const smallToken = await tokenOf(smallViewer.operatorID);

  const cases: Case[] = [
    {
      name: 'op 7 page 1, 1,000-shortcut tenant',
      path: `/v1/tenants/${small.tenantID}/operators/shortcuts`,
      authorization: smallToken,
      bare: () => listShortcuts(shortcuts, smallViewer, 1),
    },
    {
      name: 'op 7 page 1, 100,000-shortcut tenant',
      path: `/v1/tenants/${big.tenantID}/operators/shortcuts`,
      authorization: bigToken,
      bare: () => listShortcuts(shortcuts, bigViewer, 1),
    },
    {
      name: `op 7 middle page ${middleShortcutPage} of ${Math.ceil(bigVisible / 20)}`,
      path: `/v1/tenants/${big.tenantID}/operators/shortcuts?page=${middleShortcutPage}`,
      authorization: bigToken,
      bare: () => listShortcuts(shortcuts, bigViewer, middleShortcutPage),
    },
    {
      name: `op 7 deep page ${deepShortcutPage} of ${Math.ceil(bigVisible / 20)}`,
      path: `/v1/tenants/${big.tenantID}/operators/shortcuts?page=${deepShortcutPage}`,
      authorization: bigToken,
      bare: () => listShortcuts(shortcuts, bigViewer, deepShortcutPage),
    },
    {
      name: 'op 7 search "a1b2" (selective)',
      path: `/v1/tenants/${big.tenantID}/operators/shortcuts?search=a1b2`,
      authorization: bigToken,
      bare: () => listShortcuts(shortcuts, bigViewer, 1, 'a1b2'),
    },
    {
      name: 'op 7 search "entrega" (~20% match)',
      path: `/v1/tenants/${big.tenantID}/operators/shortcuts?search=entrega`,
      authorization: bigToken,
      bare: () => listShortcuts(shortcuts, bigViewer, 1, 'entrega'),
    },
    {
      name: 'op 11 page 1, contact with 50 of 1,000 sessions',
      path: `/v1/tenants/${small.tenantID}/contacts/${small.targetContactID}/sessions?perPage=50`,
      authorization: smallToken,
      bare: () => listSessions(sessions, small, smallViewer, 1),
    },
    {
      name: 'op 11 page 1, contact with 5,000 of 1,000,000 sessions',
      path: `/v1/tenants/${big.tenantID}/contacts/${big.targetContactID}/sessions?perPage=50`,
      authorization: bigToken,
      bare: () => listSessions(sessions, big, bigViewer, 1),
    },
    {
      name: `op 11 deep page ${deepSessionPage} of ${Math.ceil(visibleSessions / 50)}`,
      path: `/v1/tenants/${big.tenantID}/contacts/${big.targetContactID}/sessions?perPage=50&page=${deepSessionPage}`,
      authorization: bigToken,
      bare: () => listSessions(sessions, big, bigViewer, deepSessionPage),
    },
    {
      name: 'op 14, 1,000 notifications in the tenant',
      path: `/v1/tenants/${small.tenantID}/notifications`,
      authorization: smallToken,
      bare: () => notifications.unreadCounts(trustedTenantScope(small.tenantID), smallViewer.operatorID),
    },
    {
      name: 'op 14, 1,000,000 notifications in the tenant',
      path: `/v1/tenants/${big.tenantID}/notifications`,
      authorization: bigToken,
      bare: () => notifications.unreadCounts(trustedTenantScope(big.tenantID), bigViewer.operatorID),
    },
  ];

  await explainAll(pool, {
    'op 7 page 1 (big)': (ds) => listShortcuts(shortcutsOf(ds), bigViewer, 1),
    'op 7 middle page (big)': (ds) => listShortcuts(shortcutsOf(ds), bigViewer, middleShortcutPage),
    'op 7 deep page (big)': (ds) => listShortcuts(shortcutsOf(ds), bigViewer, deepShortcutPage),
    'op 7 search "a1b2"': (ds) => listShortcuts(shortcutsOf(ds), bigViewer, 1, 'a1b2'),
    'op 11 page 1 (operator)': (ds) => listSessions(sessionsOf(ds), big, bigViewer, 1),
    'op 11 deep page (operator)': (ds) => listSessions(sessionsOf(ds), big, bigViewer, deepSessionPage),
    'op 14': (ds) => new NotificationCountsRepository(ds).unreadCounts(trustedTenantScope(big.tenantID), bigViewer.operatorID),
  });

  const naive = await measureBare(
    'reference: count(*) of the visible shortcuts, 100,000-shortcut tenant (what the counters avoid)',
    () => pool.query(`SELECT count(*) FROM shortcuts WHERE tenant_id = $1 AND (scope = 'tenant-based' OR operator_id = $2)`, [big.tenantID, bigViewer.operatorID]),
    { durationSeconds: DURATION_SECONDS, concurrency: CONNECTIONS },
  );

  const env = { ...context.env, SERVICES_API_PORT: String(port), OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem, DATABASE_POOL_SIZE: String(POOL_SIZE) };
  const api = await startProcess('dist/apps/services-api/src/main.js', env);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`);
    const rows: LoadResult[] = [];
    const cpu = new Map<string, CpuResult>();
    for (const benchCase of cases) {
      const url = `http://127.0.0.1:${port}${benchCase.path}`;
      const check = await fetch(url, { headers: { authorization: benchCase.authorization } });
      if (check.status !== 200 && check.status !== 206) throw new Error(`${benchCase.name}: ${check.status} ${await check.text()}`);
      const http = await measureCpu({
        name: `HTTP ${benchCase.name}`,
        url,
        headers: { authorization: benchCase.authorization },
        durationSeconds: DURATION_SECONDS,
        connections: CONNECTIONS,
        servers: [api],
        warmUp: 2_000,
      });
      cpu.set(benchCase.name, http);
      rows.push(http);
      rows.push(await measureBare(`bare SQL ${benchCase.name}`, benchCase.bare, { durationSeconds: DURATION_SECONDS, concurrency: CONNECTIONS }));
    }
    rows.push(naive);
    printTable(`Operations 7, 11, 14 through HTTP (CPU of services-api per request) and as bare SQL (pool of ${POOL_SIZE}; ${CONNECTIONS} connections, ${DURATION_SECONDS} s each)`, rows);
    const check = (operation: string, smallCase: string, bigCase: string) => printScaleCheck(operation, cpu.get(smallCase)!, cpu.get(bigCase)!);
    check('Operation 7', 'op 7 page 1, 1,000-shortcut tenant', 'op 7 page 1, 100,000-shortcut tenant');
    check('Operation 11', 'op 11 page 1, contact with 50 of 1,000 sessions', 'op 11 page 1, contact with 5,000 of 1,000,000 sessions');
    check('Operation 14', 'op 14, 1,000 notifications in the tenant', 'op 14, 1,000,000 notifications in the tenant');
  } finally {
    await stopProcess(api);
    await pool.end();
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement a use case runs, with its real parameters. */
async function explainAll(pool: Pool, useCases: Record<string, (dataSource: DataSource) => Promise<unknown>>): Promise<void> {
  const sqlTimes: string[] = [];
  for (const [name, run] of Object.entries(useCases)) {
    const recorded: { sql: string; parameters: unknown[] }[] = [];
    await run(bareDataSource(pool, recorded));
    for (const [index, statement] of recorded.entries()) {
      const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.sql}`, statement.parameters);
      process.stdout.write(`\n### plan: ${name}, statement ${index + 1}\n\`\`\`\n${plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')}\n\`\`\`\n`);
      sqlTimes.push(`${name}, statement ${index + 1}: ${plan.rows.find((row: Record<string, string>) => row['QUERY PLAN'].startsWith('Execution Time'))?.['QUERY PLAN'] ?? '?'}`);
    }
  }
  process.stdout.write(`\nSQL time of each statement (EXPLAIN ANALYZE):\n${sqlTimes.map((line) => `- ${line}`).join('\n')}\n`);
}
