import { CredentialStore } from '@platform/auth';
import { PluginConnectionFixture, singleError } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * A removed connection never keeps a working token, whatever stops the
 * removal between its steps (mark in Redis, commit in PostgreSQL, tombstone
 * in Redis). Each case leaves the removal where a crash would, then asks with
 * the token, which every replica had cached beforehand.
 */
describe('revocation of a connection token across the steps of its removal', () => {
  let platform: TestPlatform;
  let credentials: CredentialStore;
  let tenantID: string;
  let connection: PluginConnectionFixture;
  const ask = () => platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization: connection.authorization } });
  const commitRemovalInDatabase = () =>
    platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [connection.pluginConnectionID]);

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
    credentials = platform.apps['core-tenants']!.get(CredentialStore);
    tenantID = await platform.fixtures.tenant();
  });
  afterAll(() => platform.close());

  beforeEach(async () => {
    connection = await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID);
    expect((await ask()).response.status).toBe(200); // cached in Redis from here on
  });

  it('refuses the token when the removal committed but its tombstone was never written', async () => {
    await credentials.beginRemoval(connection.pluginConnectionID);
    await commitRemovalInDatabase();

    const response = await ask();
    expect(response.response.status).toBe(401);
    expect(singleError(response.error).error_code).toBe(1003);
    // Asked again, still refused: the refusal did not re-fill the cache.
    expect((await ask()).response.status).toBe(401);
  });

  it('keeps the token working when the process stopped before the removal committed', async () => {
    await credentials.beginRemoval(connection.pluginConnectionID);

    expect((await ask()).response.status).toBe(200);
    expect((await ask()).response.status).toBe(200);
  });

  it('uses the cache again once a rolled-back removal is abandoned, and still sees a later removal', async () => {
    await credentials.beginRemoval(connection.pluginConnectionID);
    await credentials.abandonRemoval(connection.pluginConnectionID);
    expect((await ask()).response.status).toBe(200); // cached again

    await credentials.beginRemoval(connection.pluginConnectionID);
    await commitRemovalInDatabase();
    expect((await ask()).response.status).toBe(401);
  });
});
