import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { EmbeddedPostgres, RedisCompatibleServer, startEmbeddedPostgres } from '@platform/local-services';

/**
 * The quick start's embedded mode: with DATABASE_URL unset, `npm start` runs
 * an embedded PostgreSQL (data in `.data/postgres`, kept across starts); with
 * REDIS_URL unset, a Redis-compatible server in its own process. The three
 * apps stay separate processes and reach both over loopback, exactly as they
 * would reach real servers (docs/quick-start.md).
 */
export interface LocalServices {
  /** One line per service started, for the start's output. */
  lines: string[];
  /** True when the embedded PostgreSQL was created by this start. */
  postgresInitialised: boolean;
  stop(): Promise<void>;
}

const POSTGRES_DATA_DIR = '.data/postgres';
const POSTGRES_LOG_FILE = '.data/postgres.log';
const DATABASE_NAME = 'platform';
/** What a running quick start tells `demo:seed` and `db:migrate`: the addresses it chose. */
export const LOCAL_SERVICES_FILE = '.data/local-services.env';

const portFrom = (variable: string, fallback: number) => Number(process.env[variable] ?? fallback);

/** Starts what DATABASE_URL and REDIS_URL do not name, and sets those variables to them. */
export async function startLocalServices(): Promise<LocalServices> {
  const lines: string[] = [];
  const chosen: Record<string, string> = {};
  let postgres: EmbeddedPostgres | undefined;
  let redis: RedisCompatibleServer | undefined;
  if (!process.env.DATABASE_URL) {
    postgres = await startEmbeddedPostgres({
      dataDir: POSTGRES_DATA_DIR,
      port: portFrom('EMBEDDED_POSTGRES_PORT', 5433),
      logFile: POSTGRES_LOG_FILE,
      // Stopped by the start itself, after the apps have drained their requests.
      stopOnSignals: false,
    });
    chosen.DATABASE_URL = postgres.url(DATABASE_NAME);
    lines.push(
      `no DATABASE_URL: embedded PostgreSQL on 127.0.0.1:${portFrom('EMBEDDED_POSTGRES_PORT', 5433)}, data in ${POSTGRES_DATA_DIR}` +
        (postgres.initialised ? ' (created now)' : ''),
    );
  }
  if (!process.env.REDIS_URL) {
    redis = await RedisCompatibleServer.start(portFrom('EMBEDDED_REDIS_PORT', 6380));
    chosen.REDIS_URL = redis.url(0);
    lines.push(`no REDIS_URL: in-memory Redis-compatible server on 127.0.0.1:${redis.port} (one replica per app; emptied at every start)`);
  }
  Object.assign(process.env, chosen);
  if (Object.keys(chosen).length > 0) {
    mkdirSync('.data', { recursive: true });
    writeFileSync(LOCAL_SERVICES_FILE, Object.entries(chosen).map(([name, value]) => `${name}=${value}\n`).join(''), { mode: 0o600 });
  }
  return {
    lines,
    postgresInitialised: postgres?.initialised ?? false,
    stop: async () => {
      rmSync(LOCAL_SERVICES_FILE, { force: true });
      await redis?.close();
      await postgres?.stop();
    },
  };
}

/**
 * For `demo:seed` and `db:migrate` with DATABASE_URL unset: the embedded
 * PostgreSQL of the quick start that is running, if one is.
 */
export function loadRunningLocalServices(): boolean {
  if (process.env.DATABASE_URL || !existsSync(LOCAL_SERVICES_FILE)) return false;
  process.loadEnvFile(LOCAL_SERVICES_FILE);
  return true;
}
