import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpdeskTenant } from './helpdesk-tenant';
import { AppName } from './harness/app-replica';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

const NAMESPACE = `acl-${randomBytes(4).toString('hex')}`;
/**
 * Every user of the file gets a password, the apps this test starts and any
 * other (the real-time gateway's user, which this test leaves idle).
 */
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
const app = (name: AppName | 'realtime-gateway') => ({ username: name, password: passwordOf(name) });

/** The three built apps on a redis-server with ACLs, each with its own user (docs/deployment.md, Redis). */
describe('Redis with one ACL user per app', () => {
  let platform: FaultPlatform;

  beforeAll(async () => {
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 1, 'services-api': 1, 'plugins-helpdesk': 1 },
      env: { TRANSPORT_NAMESPACE: NAMESPACE },
      redis: { aclFile: renderedAclFile(), admin: harness },
      appEnv: (name, redis) => ({ REDIS_URL: redis.urlAs(app(name)) }),
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
    for (const name of ['core-tenants', 'services-api', 'plugins-helpdesk']) {
      const own = clients.filter((client) => client.name === name);
      expect(own.length, name).toBeGreaterThan(0);
      expect(new Set(own.map((client) => client.user)), name).toEqual(new Set([name]));
      // Each app listens for forgotten standings as its own user (docs/security.md, Immediate revocation of a membership).
      expect(clients.filter((client) => client.name === `${name}:standings`).map((client) => client.user), name).toEqual([name]);
    }
    expect(await asUser(platform, harness, 'PUBSUB', 'NUMSUB', `auth:v2:standings-forgotten:${NAMESPACE}`)).toEqual([`auth:v2:standings-forgotten:${NAMESPACE}`, 3]);
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
