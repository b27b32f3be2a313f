import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { STATEMENT_TIMEOUT_MS } from '@platform/database';

/** Set by the test setup when the apps reach PostgreSQL through PgBouncer; read by createTestDatabase. */
export const POOLER_URL_VARIABLE = 'TEST_DATABASE_POOLER_URL';

export interface TestPooler {
  /** postgres:// URL of PgBouncer, database `postgres`: swap the path for any database of the server. */
  url: string;
  /** Directory of its configuration and log, one per checkout. */
  directory: string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction pooling mode in front of the test server (the
 * admin URL's host and port), on a free port of its own, as a child process of
 * the test run. Every database of the server is reachable through it, so each
 * test file's fresh database is too.
 *
 * The configuration is generated, never the machine's: `auth_type = any` logs
 * every client in as the admin URL's user, which is what the direct URLs of
 * the tests do as well.
 */
export async function startTestPooler(adminUrl: string): Promise<TestPooler> {
  const server = new URL(adminUrl);
  const directory = join(tmpdir(), `platform-pgbouncer-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 10)}`);
  mkdirSync(directory, { recursive: true, mode: 0o755 });
  const port = await freePort();
  const configFile = join(directory, 'pgbouncer.ini');
  writeFileSync(configFile, pgbouncerConfig({ host: server.hostname, port: server.port || '5432', user: decodeURIComponent(server.username) || 'postgres', listenPort: port }), { mode: 0o644 });

  const log = openSync(join(directory, 'pgbouncer.log'), 'w');
  // PgBouncer refuses to run as root; it then drops to an unprivileged user (-u).
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', configFile] : [configFile];
  // Debian installs it in /usr/sbin, which a non-root PATH may lack.
  const child = spawn('pgbouncer', args, { stdio: ['ignore', log, log], env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin` } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://${server.username ? `${server.username}@` : ''}127.0.0.1:${port}/postgres`;
  await untilAccepting(url, child, directory);
  return {
    url,
    directory,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

function pgbouncerConfig(settings: { host: string; port: string; user: string; listenPort: number }): string {
  return [
    '[databases]',
    // PgBouncer 1.18 refuses a statement_timeout startup parameter (below): the
    // server connections get the apps' bound from the pooler instead.
    `* = host=${settings.host} port=${settings.port} user=${settings.user} connect_query='SET statement_timeout = ${STATEMENT_TIMEOUT_MS}'`,
    '',
    '[pgbouncer]',
    'pool_mode = transaction',
    'listen_addr = 127.0.0.1',
    `listen_port = ${settings.listenPort}`,
    'unix_socket_dir =',
    'auth_type = any',
    'ignore_startup_parameters = statement_timeout',
    // SHOW STATS on the admin console (database `pgbouncer`): what the benchmark counts per request.
    `stats_users = ${settings.user}`,
    // Test files run one at a time; each starts three apps with their pools, pg-boss's and its own.
    'max_client_conn = 400',
    'default_pool_size = 20',
    // A client starved of a server connection fails in seconds instead of hanging a test.
    'query_wait_timeout = 20',
    '',
  ].join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function untilAccepting(url: string, child: ChildProcess, directory: string): Promise<void> {
  // At least 50 s of tries: a bound for a pgbouncer that never comes up, long enough for a loaded machine.
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: see ${directory}/pgbouncer.log`);
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`pgbouncer did not accept connections: see ${directory}/pgbouncer.log`);
}
