import { JobsSettings, registerWorker } from '@apps/services-api';
import { createTestDatabase } from '@platform/testing';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two services-api replicas starting at once on a database that does not
 * have their queues yet (a first rollout): both register their workers.
 */
describe('job queues created by two replicas at once', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replicas: PgBoss[];
  let settings: JobsSettings;

  beforeAll(async () => {
    database = await createTestDatabase();
    settings = { databaseUrl: database.url, applicationName: 'job-queues-test', poolSize: 2, pollingIntervalMs: 60_000, measuredQueues: [] };
    replicas = [new PgBoss({ connectionString: database.url, max: 2 }), new PgBoss({ connectionString: database.url, max: 2 })];
    for (const boss of replicas) boss.on('error', () => undefined);
    await Promise.all(replicas.map((boss) => boss.start()));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((boss) => boss.stop({ graceful: false })));
    await database.drop();
  });

  it('registers the same new queues on both replicas without failing either start', async () => {
    // Concurrent creates of one new queue deadlock in PostgreSQL most of the time; several make it near certain.
    const names = ['first-rollout-a', 'first-rollout-b', 'first-rollout-c'];
    for (const name of names) {
      await Promise.all(replicas.map((boss) => registerWorker(boss, settings, { name, retryLimit: 1 }, async () => undefined)));
    }
    const created = (await replicas[0].getQueues()).map((queue) => queue.name).filter((name) => name.startsWith('first-rollout-'));
    expect(created.sort()).toEqual(names);
  });
});
