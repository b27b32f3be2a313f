import { JobsSettings, registerWorker, setAsidePgBoss10Schema } from '@apps/services-api';
import { createTestDatabase } from '@platform/testing';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';

/**
 * A database the previous release ran on (pg-boss 10's schema, jobs still
 * waiting, one cut off while running) meets two replicas of this release
 * starting at once: pg-boss 12 starts on it, and every unfinished job runs
 * once, under the queue's current retry policy.
 */
describe('upgrade from a pg-boss 10 schema', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replicas: PgBoss[];
  let settings: JobsSettings;
  const ran: string[] = [];
  const query = async <T,>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: database.directUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await query(readFileSync(resolve(__dirname, 'fixtures/pg-boss-10-schema.sql'), 'utf8'));
    await query(`SELECT pgboss.create_queue('upgrade-mail', '{"policy":"standard","retryLimit":2}')`);
    await query(`SELECT pgboss.create_queue('upgrade-other', '{"policy":"standard"}')`);
    await query(
      `INSERT INTO pgboss.job (name, data, state, start_after) VALUES
         ('upgrade-mail', '{"to":"waiting"}', 'created', now() - interval '1 minute'),
         ('upgrade-mail', '{"to":"cut-off"}', 'active', now() - interval '5 minutes'),
         ('upgrade-mail', '{"to":"retrying"}', 'retry', now() - interval '1 minute'),
         ('upgrade-mail', '{"to":"done"}', 'completed', now() - interval '1 hour'),
         ('upgrade-other', '{"to":"other"}', 'created', now())`,
    );
    settings = { databaseUrl: database.url, applicationName: 'pg-boss-upgrade-test', poolSize: 2, pollingIntervalMs: 500, measuredQueues: [] };
  });
  afterAll(async () => {
    await Promise.all((replicas ?? []).map((boss) => boss.stop({ graceful: false })));
    await database.drop();
  });

  it('sets the old schema aside once, starts pg-boss 12, and runs each unfinished job once with the current retry policy', async () => {
    const setAside = await Promise.all([1, 2].map(() => setAsidePgBoss10Schema(database.url, settings.applicationName)));
    expect(setAside.sort()).toEqual([false, true]);

    replicas = [new PgBoss({ connectionString: database.url, max: 2 }), new PgBoss({ connectionString: database.url, max: 2 })];
    for (const boss of replicas) boss.on('error', () => undefined);
    // One after the other: what runs side by side here is the set-aside above and the take-over below. Two pg-boss 12
    // instances creating their schema at the same moment can collide through a transaction pooler (CREATE SCHEMA race).
    for (const boss of replicas) await boss.start();
    await Promise.all(
      replicas.map((boss) =>
        registerWorker<{ to: string }>(boss, settings, { name: 'upgrade-mail', retryLimit: 7 }, async (job) => {
          ran.push(job.data.to);
        }),
      ),
    );

    await eventually(async () => expect(ran.sort()).toEqual(['cut-off', 'retrying', 'waiting']));
    const moved = await query<{ retry_limit: number }>(`SELECT retry_limit FROM pgboss.job WHERE name = 'upgrade-mail'`);
    expect(moved.map((job) => job.retry_limit)).toEqual([7, 7, 7]);
    // The finished job stays behind; a queue no worker took over yet keeps its jobs there.
    const left = await query<{ name: string; state: string }>(`SELECT name, state::text FROM pgboss_v10.job ORDER BY name`);
    expect(left).toEqual([
      { name: 'upgrade-mail', state: 'completed' },
      { name: 'upgrade-other', state: 'created' },
    ]);
    const [version] = await query<{ version: number }>('SELECT version FROM pgboss.version');
    expect(version.version).toBeGreaterThan(24);
  });
});
