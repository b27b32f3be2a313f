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
    // Several at once, so that a pool hands out several server connections, each asked.
    const answers = await Promise.all(Array.from({ length: 6 }, () => dataSource.query('SELECT current_setting($1) AS timeout, pg_sleep(0.05)', ['statement_timeout'])));
    expect(answers.map(([row]) => row.timeout)).toEqual(Array(6).fill(`${STATEMENT_TIMEOUT_MS / 1000}s`));
  });
});
