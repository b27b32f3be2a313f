import { randomUUID } from 'node:crypto';
import { encodeIdAndSecret, hashSecretToken } from '@platform/auth';
import { PlatformMetrics } from '@platform/observability';
import { createTestRedis, singleError, TestRedis } from '@platform/testing';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';


/**
 * Whoever can write to Redis grants nothing PostgreSQL did not: entries
 * written as `redis-cli SET` would write them are misses, and the request gets
 * PostgreSQL's answer (docs/security.md, Caches in Redis).
 */
describe('authorization caches in Redis', () => {
  let platform: TestPlatform;
  let attacker: TestRedis;
  let tenantID: string;
  let pluginID: string;

  const readTenant = (authorization: string) => platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization } });
  const auditEvents = (token: string) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/audit-events', { params: { path: { tenantID } }, headers: { authorization: `Bearer ${token}` } });
  /** Credential reads (statements on token hashes) core-tenants sends to PostgreSQL while `act` runs. */
  const credentialReadsDuring = async (act: () => Promise<unknown>) => {
    // Counted at the driver: statements outside a transaction go straight to the pg pool, not through DataSource.query.
    // Only core-tenants owns the credential tables, so a token_hash statement is always its.
    const spy = vi.spyOn(Client.prototype, 'query');
    try {
      await act();
      return spy.mock.calls.filter(([statement]) => String(statement).includes('token_hash')).length;
    } finally {
      spy.mockRestore();
    }
  };
  const refusedEntries = async (cache: string, app: 'core-tenants' | 'services-api' = 'core-tenants') =>
    (await platform.apps[app]!.get(PlatformMetrics).cacheEntriesRefused.get()).values.find(({ labels }) => labels.cache === cache)?.value ?? 0;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    attacker = createTestRedis({ maxRetriesPerRequest: 1 });
    tenantID = await platform.fixtures.tenant();
    pluginID = (await platform.fixtures.plugin()).pluginID;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await attacker.quit();
    await platform.close();
  });

  it('grants nothing to a connection token whose cache entry was forged in Redis (401), and counts the entry', async () => {
    const forgedID = randomUUID();
    const forgedToken = 'a-token-of-the-attackers-choosing-0000000000';
    const value = JSON.stringify({ tokenHash: hashSecretToken(forgedToken), tenantID, pluginID });
    const refusedBefore = await refusedEntries('connection');
    for (const forged of [value, `${Date.now() + 60_000}.${'A'.repeat(43)}.${value}`]) {
      await attacker.set(`auth:v1:connection:${forgedID}`, value, 'EX', 60);
      await attacker.set(`auth:v2:connection:{c:${forgedID}}`, forged, 'EX', 60);
      const { response, error } = await readTenant(`PluginConnection ${encodeIdAndSecret(forgedID, forgedToken)}`);
      expect(response.status).toBe(401);
      expect(singleError(error)).toMatchObject({ error_code: 1003 });
    }
    expect(await refusedEntries('connection')).toBe(refusedBefore + 2);
  });

  it('grants nothing to a valid entry moved to another connection id (401)', async () => {
    const real = await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID);
    expect((await readTenant(real.authorization)).response.status).toBe(200); // now cached, sealed for its own key
    const sealed = await attacker.get(`auth:v2:connection:{c:${real.pluginConnectionID}}`);
    const otherID = randomUUID();
    await attacker.set(`auth:v2:connection:{c:${otherID}}`, sealed!, 'EX', 60);
    expect((await readTenant(`PluginConnection ${encodeIdAndSecret(otherID, real.pluginConnectionToken)}`)).response.status).toBe(401);
  });

  it.each([
    ['unsealed, as before', () => 'owner'],
    ['with a MAC the attacker made up', () => `${Date.now() + 60_000}.${'A'.repeat(43)}.owner`],
  ])('gives a forged owner standing (%s) the database\'s answer (403)', async (_, forged) => {
    // A member no replica has a standing for yet, so the forged entry is what the first request reads.
    const member = (await platform.fixtures.operator()).operatorID;
    await platform.fixtures.membership(tenantID, member, 'member');
    await attacker.set(`auth:v1:standing:${tenantID}:operator:${member}`, 'owner', 'EX', 60);
    await attacker.set(`auth:v2:standing:${tenantID}:operator:${member}`, forged(), 'EX', 60);
    const refusedBefore = await refusedEntries('standing', 'services-api');
    const { response, error } = await auditEvents(await platform.tokenFor(member));
    expect(response.status).toBe(403);
    expect(singleError(error)).toMatchObject({ error_code: 1004 });
    expect(await refusedEntries('standing', 'services-api')).toBe(refusedBefore + 1);
  });

  it('still answers a valid cached connection entry without a PostgreSQL query', async () => {
    const connection = await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID);
    expect((await readTenant(connection.authorization)).response.status).toBe(200);
    let status = 0;
    const statements = await credentialReadsDuring(async () => {
      status = (await readTenant(connection.authorization)).response.status;
    });
    expect(status).toBe(200);
    expect(statements).toBe(0);
  });

  it.each([
    ['plugin', (id: string) => `Plugin ${encodeIdAndSecret(id, 'a-garbage-plugin-token-000000000000000000')}`],
    ['connection', (id: string) => `PluginConnection ${encodeIdAndSecret(id, 'a-garbage-connection-token-0000000000000')}`],
  ] as const)('answers an unknown %s id 401 without a PostgreSQL query on repeat, and asks again once the entry lapses', async (_, authorization) => {
    const unknownID = randomUUID();
    const first = await credentialReadsDuring(async () => expect((await readTenant(authorization(unknownID))).response.status).toBe(401));
    expect(first).toBe(1);
    const repeat = await credentialReadsDuring(async () => expect((await readTenant(authorization(unknownID))).response.status).toBe(401));
    expect(repeat).toBe(0);

    // Past AUTH_UNKNOWN_CREDENTIAL_CACHE_SECONDS (5 s by default) the entry is refused as lapsed even if Redis still held it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_001 });
    const lapsed = await credentialReadsDuring(async () => expect((await readTenant(authorization(unknownID))).response.status).toBe(401));
    expect(lapsed).toBe(1);
  });

  it('lets a forged negative entry lock out no real connection', async () => {
    const connection = await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID);
    await attacker.set(`auth:v2:connection:{c:${connection.pluginConnectionID}}`, `${Date.now() + 60_000}.${'A'.repeat(43)}.null`, 'EX', 60);
    await attacker.set(`auth:v2:connection-revoked:{c:${connection.pluginConnectionID}}`, '1', 'EX', 60);
    expect((await readTenant(connection.authorization)).response.status).toBe(200);
  });
});
