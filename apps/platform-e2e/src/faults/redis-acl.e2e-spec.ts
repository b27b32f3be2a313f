import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeIdAndSecret } from '@platform/auth';
import { freePort } from '@platform/testing';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Refusal, TestSocket } from '../realtime/realtime-client';
import { helpdeskTenant } from './helpdesk-tenant';
import { AppReplica, BuiltApp } from './harness/app-replica';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

const NAMESPACE = `acl-${randomBytes(4).toString('hex')}`;
/** Every user of the file gets a password: the apps this test starts, and any other. */
const passwords = new Map<string, string>();
const passwordOf = (user: string): string => {
  if (!passwords.has(user)) passwords.set(user, randomBytes(24).toString('base64url'));
  return passwords.get(user) as string;
};
/** The test's own user, to look at the server; not part of the documented file. */
const harness = { username: 'harness', password: randomBytes(24).toString('base64url') };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * k8s/redis/users.acl, the ACL file docs/deployment.md shows, rendered as an
 * operator would: this run's namespace, each app's password hash.
 */
function renderedAclFile(): string {
  const template = readFileSync(resolve(process.cwd(), 'k8s/redis/users.acl'), 'utf8');
  const rendered = template
    .replaceAll('{{NAMESPACE}}', NAMESPACE)
    .replace(/\{\{([A-Z_]+)_PASSWORD_SHA256\}\}/g, (_placeholder, user: string) => sha256(passwordOf(user.toLowerCase().replaceAll('_', '-'))));
  if (rendered.includes('{{')) throw new Error(`k8s/redis/users.acl has a placeholder this test does not fill:\n${rendered}`);
  const file = join(mkdtempSync(join(tmpdir(), 'redis-acl-')), 'users.acl');
  writeFileSync(file, `${rendered.trimEnd()}\nuser ${harness.username} on >${harness.password} ~* &* +@all\n`);
  return file;
}

/** What a command sent as `user` answers: its reply, or its error's message. */
async function asUser(platform: FaultPlatform, user: { username: string; password: string } | undefined, ...command: [string, ...(string | number)[]]): Promise<unknown> {
  // No ready check (INFO): without credentials the command itself must be what is refused.
  const client = new Redis(platform.redis.urlAs(user), { lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.call(...command).catch((error: Error) => error.message);
  } finally {
    client.disconnect();
  }
}
const app = (name: BuiltApp) => ({ username: name, password: passwordOf(name) });

/** A secret as a secret manager would hold it: production refuses the suite's test values. */
const realSecret = (prefix = '') => `${prefix}${randomBytes(24).toString('base64url')}`;

/**
 * What production requires on top of the suite's environment (docs/configuration.md):
 * NODE_ENV=production, a namespace, and real secrets where the suite has examples.
 */
const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  TRANSPORT_NAMESPACE: NAMESPACE,
  CACHE_SECRET: realSecret(),
  BILLING_API_KEY: realSecret('sk_live_'),
  SIGN_UP_SECRET: realSecret(),
  WEBHOOK_SECRETS_KEY: realSecret(),
  WHATSAPP_APP_SECRET: realSecret(),
  WHATSAPP_WEBHOOK_VERIFY_TOKEN: realSecret(),
};

/** A credential of the right shape that PostgreSQL does not know. */
const unknownConnection = () => `PluginConnection ${encodeIdAndSecret(randomUUID(), randomBytes(32).toString('base64url'))}`;

/** What the gateway answers an upgrade with these headers: 101 (then closed) or its refusal's status. */
async function upgradeStatus(gateway: AppReplica<'realtime-gateway'>, authorization: string): Promise<number> {
  const opened = await TestSocket.open(`${gateway.url.replace(/^http/, 'ws')}/v1/realtime`, { headers: { authorization } });
  if (!(opened instanceof TestSocket)) return (opened as Refusal).status;
  opened.close();
  return 101;
}

/**
 * Every built app, the real-time gateway included, in production on a
 * redis-server with ACLs, each with its own user (docs/deployment.md, Redis).
 */
describe('Redis with one ACL user per app', () => {
  let platform: FaultPlatform;
  const metricsPorts = new Map<BuiltApp, number>();
  const gateway = () => platform.gateway as AppReplica<'realtime-gateway'>;
  const replicaOf = (name: BuiltApp): AppReplica<BuiltApp> => (name === 'realtime-gateway' ? gateway() : platform.replicas[name][0]);

  /** Lookups of `credential` an app answered from PostgreSQL so far (`platform_credential_lookups_total`, docs/metrics.md). */
  async function credentialQueries(name: BuiltApp, credential: 'plugin' | 'connection'): Promise<number> {
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPorts.get(name)}/metrics`)).text();
    const line = scrape.split('\n').find((row) => row.startsWith('platform_credential_lookups_total{') && row.includes(`credential="${credential}"`) && row.includes('source="postgresql"'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  beforeAll(async () => {
    for (const name of ['core-tenants', 'services-api', 'plugins-helpdesk', 'realtime-gateway'] as const) metricsPorts.set(name, await freePort());
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 1, 'services-api': 1, 'plugins-helpdesk': 1 },
      gateway: true,
      env: PRODUCTION_ENV,
      redis: { aclFile: renderedAclFile(), admin: harness },
      appEnv: (name, redis) => ({ REDIS_URL: redis.urlAs(app(name)), METRICS_PORT: String(metricsPorts.get(name)) }),
    });
  });
  afterAll(() => platform?.close());

  it('signs in, removes a plugin connection across the transport and serves the helpdesk, each app as its own user', async () => {
    const operator = await platform.fixtures.operator();
    const tenantID = await platform.fixtures.tenant();
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
    const signIn = await platform.balancer('core-tenants').api.POST('/v1/operators/sign-in', { body: { operatorEmail: operator.email, password: operator.password } });
    expect(signIn.response.status).toBe(200);
    const authorization = `Bearer ${signIn.data!.data.token}`;

    const plugin = await platform.fixtures.plugin();
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
    const removal = await platform.balancer('services-api').api.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
      headers: { authorization },
    });
    expect(removal.response.status, JSON.stringify(removal.error)).toBe(200);
    expect(await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connection.pluginConnectionID])).toEqual([{ status: 'removed' }]);

    const helpdesk = await helpdeskTenant(platform);
    expect((await helpdesk.list(platform.balancer('plugins-helpdesk').api)).response.status).toBe(200);

    // Every connection an app opened is logged in as that app's user.
    const clients = String(await asUser(platform, harness, 'CLIENT', 'LIST'))
      .trim()
      .split('\n')
      .map((line) => Object.fromEntries(line.split(' ').map((pair) => pair.split('=') as [string, string])));
    for (const name of ['core-tenants', 'services-api', 'plugins-helpdesk', 'realtime-gateway']) {
      const own = clients.filter((client) => client.name === name);
      expect(own.length, name).toBeGreaterThan(0);
      expect(new Set(own.map((client) => client.user)), name).toEqual(new Set([name]));
      // Each app listens for forgotten standings as its own user (docs/security.md, Immediate revocation of a membership).
      expect(clients.filter((client) => client.name === `${name}:standings`).map((client) => client.user), name).toEqual([name]);
    }
    expect(await asUser(platform, harness, 'PUBSUB', 'NUMSUB', `auth:v2:standings-forgotten:${NAMESPACE}`)).toEqual([`auth:v2:standings-forgotten:${NAMESPACE}`, 4]);
  });

  it('answers a repeated unknown credential from Redis after one PostgreSQL read, on REST and on the upgrade, and no app fails a cache fill', async () => {
    const helpdesk = await helpdeskTenant(platform);
    const listDomains = (authorization: string) =>
      platform.balancer('plugins-helpdesk').api.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID: helpdesk.tenantID } }, headers: { authorization } });
    const unknown = {
      connection: unknownConnection,
      plugin: () => `Plugin ${encodeIdAndSecret(randomUUID(), randomBytes(32).toString('base64url'))}`,
    };
    for (const credential of ['connection', 'plugin'] as const) {
      // One credential per app: the first lookup's negative entry in Redis serves every app.
      const rest = unknown[credential]();
      const restBefore = await credentialQueries('plugins-helpdesk', credential);
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await listDomains(rest)).response.status).toBe(401);
      expect(await credentialQueries('plugins-helpdesk', credential), `REST, ${credential}`).toBe(restBefore + 1);

      const upgrade = unknown[credential]();
      const upgradeBefore = await credentialQueries('realtime-gateway', credential);
      for (let attempt = 0; attempt < 3; attempt += 1) expect(await upgradeStatus(gateway(), upgrade)).toBe(401);
      expect(await credentialQueries('realtime-gateway', credential), `upgrade, ${credential}`).toBe(upgradeBefore + 1);
    }
    // And a live connection's credential fills the cache of the apps whose users may only read revocations (k8s/redis/users.acl).
    const plugin = await platform.fixtures.plugin();
    const connection = await platform.fixtures.connection(helpdesk.tenantID, plugin.pluginID);
    const upgradeBefore = await credentialQueries('realtime-gateway', 'connection');
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await upgradeStatus(gateway(), connection.authorization)).toBe(101);
    expect(await credentialQueries('realtime-gateway', 'connection')).toBe(upgradeBefore + 1);

    for (const name of ['core-tenants', 'services-api', 'plugins-helpdesk', 'realtime-gateway'] as const) {
      expect(replicaOf(name).logs(), name).not.toMatch(/cache fill failed|NOPERM/);
    }
  });

  it('refuses a connection cache entry copied before its removal and written back after it, tombstone and mark deleted: PostgreSQL answers', async () => {
    const operator = await platform.fixtures.operator();
    const tenantID = await platform.fixtures.tenant();
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
    const plugin = await platform.fixtures.plugin();
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
    const readTenant = () => platform.balancer('core-tenants').api.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization: connection.authorization } });
    expect((await readTenant()).response.status).toBe(200);
    expect(await upgradeStatus(gateway(), connection.authorization)).toBe(101);
    const entryKey = `auth:v2:connection:{c:${connection.pluginConnectionID}}`;
    const copy = await asUser(platform, harness, 'GET', entryKey);
    expect(copy).toEqual(expect.any(String));

    const removal = await platform.balancer('services-api').api.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
      headers: { authorization: `Bearer ${await platform.tokenFor(operator.operatorID)}` },
    });
    expect(removal.response.status, JSON.stringify(removal.error)).toBe(200);
    // Whoever can write to Redis: the revocation's keys gone, the entry from before the removal back.
    expect(await asUser(platform, harness, 'DEL', `auth:v2:connection-revoked:{c:${connection.pluginConnectionID}}`, `auth:v2:connection-removing:{c:${connection.pluginConnectionID}}`)).toBe(2);
    expect(await asUser(platform, harness, 'SET', entryKey, copy as string, 'EX', 60)).toBe('OK');

    expect((await readTenant()).response.status).toBe(401);
    expect(await upgradeStatus(gateway(), connection.authorization)).toBe(401);
    expect(await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connection.pluginConnectionID])).toEqual([{ status: 'removed' }]);
  });

  it("refuses each user what is not its app's: other apps' keys, the transport for plugins-helpdesk, other namespaces, no credentials at all", async () => {
    expect(await asUser(platform, undefined, 'GET', 'auth:v1:plugin:x')).toMatch(/NOAUTH|NOPERM|authentication/i);
    expect(await asUser(platform, app('plugins-helpdesk'), 'PUBLISH', `${NAMESPACE}:operator-tokens.issue`, '{}')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('plugins-helpdesk'), 'GET', 'signup:v1:delivery-failing')).toMatch(/NOPERM/);
    // plugins-helpdesk only listens for forgotten standings; it never tells.
    expect(await asUser(platform, app('plugins-helpdesk'), 'PUBLISH', `auth:v2:standings-forgotten:${NAMESPACE}`, 'x')).toMatch(/NOPERM/);
    // plugins-helpdesk reads standings and revocations, never writes them (docs/security.md, Caches in Redis).
    expect(await asUser(platform, app('plugins-helpdesk'), 'SET', 'auth:v2:standing:t:operator:o', 'x')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('plugins-helpdesk'), 'DEL', 'auth:v2:connection-revoked:x')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('plugins-helpdesk'), 'GET', 'auth:v2:standing:t:operator:o')).toBeNull();
    expect(await asUser(platform, app('services-api'), 'SET', `transport:v1:claim:${NAMESPACE}:forged`, '1')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('services-api'), 'PUBLISH', `production:operator-tokens.issue`, '{}')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('core-tenants'), 'GET', 'helpdesk:v1:refresh:x')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('core-tenants'), 'FLUSHALL')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('core-tenants'), 'KEYS', '*')).toMatch(/NOPERM/);
    // Only services-api announces commits of conversation events; the gateway only listens (docs/security.md, The real-time relay's nudges).
    expect(await asUser(platform, app('realtime-gateway'), 'PUBLISH', `realtime:v1:outbox-committed:${NAMESPACE}`, '')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('plugins-helpdesk'), 'PUBLISH', `realtime:v1:outbox-committed:${NAMESPACE}`, '')).toMatch(/NOPERM/);
    expect(await asUser(platform, app('services-api'), 'PUBLISH', 'realtime:v1:outbox-committed:production', '')).toMatch(/NOPERM/);
    // And what is theirs works (the same calls could not pass for another reason).
    expect(await asUser(platform, app('services-api'), 'PUBLISH', `${NAMESPACE}:operator-tokens.issue`, '{}')).toEqual(expect.any(Number));
    expect(await asUser(platform, app('plugins-helpdesk'), 'GET', 'helpdesk:v1:refresh:x')).toBeNull();
    expect(await asUser(platform, app('services-api'), 'PUBLISH', `realtime:v1:outbox-committed:${NAMESPACE}`, '')).toEqual(expect.any(Number));
    expect(await asUser(platform, harness, 'ACL', 'DRYRUN', 'realtime-gateway', 'SUBSCRIBE', `realtime:v1:outbox-committed:${NAMESPACE}`)).toBe('OK');
  });
});
