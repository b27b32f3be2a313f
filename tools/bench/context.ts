import { Client } from 'pg';

/** What every benchmark scenario gets: its own fresh database and a Redis database. */
export interface BenchContext {
  databaseUrl: string;
  redisUrl: string;
  /** Environment for app processes started by the scenario. */
  env: Record<string, string>;
  /** First of the loopback ports a scenario may use (it owns portBase..portBase+9). */
  portBase: number;
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
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
