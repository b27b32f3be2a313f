import { STATEMENT_TIMEOUT_MS } from '@platform/database';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppName, startPlatform, TestPlatform } from '../support/platform';

/**
 * The apps' PostgreSQL connections, direct or through PgBouncer in transaction
 * pooling mode (`npm run test:pooled`): whichever server connection a
 * transaction lands on carries the apps' statement bound.
 */
describe('PostgreSQL connections of the apps', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform.close();
  });

  it.each<AppName>(['core-tenants', 'services-api', 'plugins-helpdesk'])('%s: every statement is bounded by the statement timeout', async (name) => {
    const dataSource = platform.apps[name]!.get(DataSource);
    // Several transactions open at once (fewer than the pool holds): each has a server connection of its own, each asked.
    const runners = Array.from({ length: 4 }, () => dataSource.createQueryRunner());
    try {
      await Promise.all(runners.map((runner) => runner.startTransaction()));
      const answers: { timeout: string; backend: number }[][] = await Promise.all(
        runners.map((runner) => runner.query('SELECT current_setting($1) AS timeout, pg_backend_pid() AS backend', ['statement_timeout'])),
      );
      expect(new Set(answers.map(([row]) => row.backend)).size).toBe(runners.length);
      expect(answers.map(([row]) => row.timeout)).toEqual(Array(runners.length).fill(`${STATEMENT_TIMEOUT_MS / 1000}s`));
    } finally {
      for (const runner of runners) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
  });
});
