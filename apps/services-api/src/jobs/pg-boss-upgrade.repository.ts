import { Client } from 'pg';
import type { JobInsert, PgBoss } from 'pg-boss';

/**
 * Upgrade from pg-boss 10. Its schema (version 24) is one pg-boss 12 cannot
 * migrate: pg-boss 11 changed the job tables without a migration, and 12
 * migrates from 11's schema (25) onwards. So a database that still holds a
 * pg-boss 10 `pgboss` schema has it set aside, renamed to `pgboss_v10`,
 * before pg-boss starts (and creates its own schema afresh); each queue's
 * worker then takes over the jobs of its queue that were still waiting,
 * running or due for a retry, with the queue's current retry policy.
 * Once every queue has done so, the set-aside schema holds only finished
 * jobs and can be dropped (docs/deployment.md).
 */
export const PG_BOSS_10_SCHEMA = 'pgboss_v10';
const PG_BOSS_10_SCHEMA_VERSION = 24;

/** Renames a pg-boss 10 `pgboss` schema to `pgboss_v10`, once, whichever replica gets there first. */
export async function setAsidePgBoss10Schema(databaseUrl: string, applicationName: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl, application_name: applicationName });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Replicas starting together take turns; the second finds the schema gone (or pg-boss 12's).
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('pgboss_v10 set-aside'))`);
    const { rows } = await client.query<{ installed: boolean; set_aside: boolean }>(
      `SELECT to_regclass('pgboss.version') IS NOT NULL AS installed, to_regnamespace($1) IS NOT NULL AS set_aside`,
      [PG_BOSS_10_SCHEMA],
    );
    let setAside = false;
    if (rows[0].installed && !rows[0].set_aside) {
      const { rows: versions } = await client.query<{ version: number }>('SELECT version FROM pgboss.version LIMIT 1');
      setAside = versions[0]?.version === PG_BOSS_10_SCHEMA_VERSION;
      if (setAside) await client.query(`ALTER SCHEMA pgboss RENAME TO ${PG_BOSS_10_SCHEMA}`);
    }
    await client.query('COMMIT');
    return setAside;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

interface PgBoss10Job {
  data: object | null;
  priority: number;
  start_after: Date;
  singleton_key: string | null;
}

/**
 * Moves the queue's unfinished pg-boss 10 jobs into pg-boss 12, in one
 * transaction (deleted there, inserted here), so each job moves once however
 * many replicas start. A running job is taken as waiting: the process that
 * ran it under pg-boss 10 is gone. Returns how many moved.
 */
export async function adoptPgBoss10Jobs(boss: PgBoss, queue: string): Promise<number> {
  const db = boss.getDb();
  const { rows } = await db.executeSql(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${PG_BOSS_10_SCHEMA}.job`]);
  if (!rows[0]?.present) return 0;
  const transaction = await db.beginTransaction!();
  try {
    const { rows: jobs } = (await transaction.db.executeSql(
      `DELETE FROM ${PG_BOSS_10_SCHEMA}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')
       RETURNING data, priority, start_after, singleton_key`,
      [queue],
    )) as { rows: PgBoss10Job[] };
    if (jobs.length > 0) await boss.insert(queue, jobs.map(asJobInsert), { db: transaction.db });
    await transaction.commit();
    return jobs.length;
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}

function asJobInsert(job: PgBoss10Job): JobInsert {
  return {
    data: job.data ?? undefined,
    priority: job.priority,
    startAfter: job.start_after,
    ...(job.singleton_key === null ? {} : { singletonKey: job.singleton_key }),
  };
}
