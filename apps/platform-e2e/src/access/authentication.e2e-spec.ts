import { CredentialStore, encodeIdAndSecret } from '@platform/auth';
import { generateTestSigningKey, PluginConnectionFixture, PluginFixture, signOperatorToken, singleError, unsignedToken } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

const UNAUTHORIZED = { statusCode: 401, error: 'UnauthorizedError', error_code: 1003, message: 'You are not authorized to perform this request.' };

/**
 * Every way a credential can be missing or invalid, against an endpoint that
 * accepts all three profiles: each is 401 1003 with the same body.
 */
describe('authentication profiles', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let operatorID: string;
  let plugin: PluginFixture;
  let connection: PluginConnectionFixture;
  const get = (authorization?: string) =>
    platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: authorization === undefined ? {} : { authorization } });

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
    tenantID = await platform.fixtures.tenant();
    operatorID = (await platform.fixtures.operator()).operatorID;
    await platform.fixtures.membership(tenantID, operatorID, 'member');
    plugin = await platform.fixtures.plugin();
    connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
  });
  afterAll(() => platform.close());

  it('accepts each profile with a valid credential', async () => {
    expect((await get(`Bearer ${await platform.tokenFor(operatorID)}`)).response.status).toBe(200);
    expect((await get(plugin.authorization)).response.status).toBe(200);
    expect((await get(connection.authorization)).response.status).toBe(200);
  });

  it('accepts the scheme name in any case', async () => {
    expect((await get(`bearer ${await platform.tokenFor(operatorID)}`)).response.status).toBe(200);
    expect((await get(`PLUGIN ${encodeIdAndSecret(plugin.pluginID, plugin.pluginToken)}`)).response.status).toBe(200);
  });

  const malformed: [string, () => string][] = [
    ['an empty header', () => ''],
    ['an unknown scheme', () => `Basic ${encodeIdAndSecret(plugin.pluginID, plugin.pluginToken)}`],
    ['a scheme without a value', () => 'Plugin'],
    ['undecodable base64', () => 'Plugin %%%not-base64%%%'],
    ['base64 with bad padding', () => `Plugin ${encodeIdAndSecret(plugin.pluginID, plugin.pluginToken).replace(/=+$/, '')}A`],
    ['no colon', () => `Plugin ${Buffer.from(plugin.pluginID + plugin.pluginToken).toString('base64')}`],
    ['a non-UUID id', () => `Plugin ${encodeIdAndSecret('plugin-1', plugin.pluginToken)}`],
    ['an empty token', () => `Plugin ${encodeIdAndSecret(plugin.pluginID, '')}`],
    ['an unknown plugin id', () => `Plugin ${encodeIdAndSecret('9d5bd5a4-0b7e-4f55-8d40-2f8a6c1e7b11', plugin.pluginToken)}`],
    ['a wrong plugin token', () => `Plugin ${encodeIdAndSecret(plugin.pluginID, `${plugin.pluginToken}x`)}`],
    ['an unknown connection id', () => `PluginConnection ${encodeIdAndSecret('9d5bd5a4-0b7e-4f55-8d40-2f8a6c1e7b11', connection.pluginConnectionToken)}`],
    ['a wrong connection token', () => `PluginConnection ${encodeIdAndSecret(connection.pluginConnectionID, plugin.pluginToken)}`],
    ['a plugin token presented as a connection', () => `PluginConnection ${encodeIdAndSecret(plugin.pluginID, plugin.pluginToken)}`],
    ['a connection token presented as the plugin', () => `Plugin ${encodeIdAndSecret(connection.pluginConnectionID, connection.pluginConnectionToken)}`],
    ['a bearer value that is not a JWT', () => 'Bearer not.a.jwt'],
    ['a JWT with alg none', () => `Bearer ${unsignedToken(operatorID)}`],
  ];

  it('answers 401 1003 with no Authorization header', async () => {
    const { response, error } = await get();
    expect(response.status).toBe(401);
    expect(singleError(error)).toEqual(UNAUTHORIZED);
  });

  it.each(malformed)('answers 401 1003 for %s', async (_, header) => {
    const { response, error } = await get(header());
    expect(response.status).toBe(401);
    expect(singleError(error)).toEqual(UNAUTHORIZED);
  });

  const badTokens: [string, (platform: TestPlatform) => Promise<string>][] = [
    ['signed by another key', async () => signOperatorToken(generateTestSigningKey().privateKey, operatorID)],
    ['expired', async (p) => p.tokenFor(operatorID, { expiresInSeconds: -60 })],
    ['not yet valid', async (p) => p.tokenFor(operatorID, { notBeforeSeconds: 600 })],
    ['for another audience', async (p) => p.tokenFor(operatorID, { audience: 'rtm-api' })],
    ['from another issuer', async (p) => p.tokenFor(operatorID, { issuer: 'someone-else' })],
    ['whose subject is not an operator id', async (p) => p.tokenFor(operatorID, { subject: 'admin' })],
  ];

  it.each(badTokens)('answers 401 1003 for an operator JWT %s', async (_, make) => {
    const { response, error } = await get(`Bearer ${await make(platform)}`);
    expect(response.status).toBe(401);
    expect(singleError(error)).toEqual(UNAUTHORIZED);
  });

  it('stops a removed connection\'s token at once, even while it is cached', async () => {
    const plugin2 = await platform.fixtures.plugin();
    const doomed = await platform.fixtures.connection(tenantID, plugin2.pluginID);
    expect((await get(doomed.authorization)).response.status).toBe(200); // now cached in Redis

    await platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [doomed.pluginConnectionID]);
    await platform.apps['core-tenants']!.get(CredentialStore).revokeConnection(doomed.pluginConnectionID);

    const { response, error } = await get(doomed.authorization);
    expect(response.status).toBe(401);
    expect(singleError(error)).toEqual(UNAUTHORIZED);
  });
});
