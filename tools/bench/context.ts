import { Client } from 'pg';

/** What every benchmark scenario gets: its own fresh database and a Redis database. */
export interface BenchContext {
  databaseUrl: string;
  redisUrl: string;
  /** Environment for app processes started by the scenario. */
  env: Record<string, string>;
  /** First of the loopback ports a scenario may use (it owns portBase..portBase+9). */
  portBase: number;
  /** The command line's `--name value` (or bare `--name`: '') options, for the scenarios that take any. */
  options: Record<string, string>;
}

export async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return databaseUrlNamed(adminUrl, name);
}

/** The URL of another database on the same server. */
export function databaseUrlNamed(url: string, name: string): string {
  const named = new URL(url);
  named.pathname = `/${name}`;
  return named.toString();
}

/** Whether the server holds a database of that name (a scenario's kept data set). */
export async function databaseExists(url: string, name: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrlNamed(url, 'postgres') });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}
