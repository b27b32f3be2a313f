import { MetricsListener } from '@platform/observability';
import { createTestRedis, request, singleError, TestRedis } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * Sends `count` GETs of `path` pipelined on one connection and resets the
 * connection at the first byte of an answer, as an attacker does so that no
 * answer after the first is ever finished.
 */
function pipelineAndReset(baseUrl: string, path: string, headers: Record<string, string>, count: number): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const head = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\n${head}\r\n`.repeat(count)));
    socket.once('data', () => {
      socket.resetAndDestroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

const TOO_MANY = { statusCode: 429, error: 'TooManyRequestsError', error_code: 1071, message: 'Too many requests. Try again later.' };

/** Budgets small enough to exhaust in a test: 4 requests per principal, 6 per tenant, per minute. */
const SMALL_BUDGETS = { RATE_LIMIT_PRINCIPAL: '4/60s', RATE_LIMIT_TENANT: '6/60s' };

describe('request budgets of authenticated operations', () => {
  let platform: TestPlatform;
  const bearer = async (operatorID: string) => ({ authorization: `Bearer ${await platform.tokenFor(operatorID)}` });
  /** A tenant with `members` operators, and their bearer headers. */
  const tenantWithMembers = async (members: number) => {
    const tenantID = await platform.fixtures.tenant();
    const headers: Record<string, string>[] = [];
    for (let index = 0; index < members; index += 1) {
      const operator = await platform.fixtures.operator();
      await platform.fixtures.membership(tenantID, operator.operatorID, index === 0 ? 'owner' : 'member');
      headers.push(await bearer(operator.operatorID));
    }
    return { tenantID, headers };
  };
  const shortcuts = (tenantID: string, headers: Record<string, string>) => request(platform.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers });
  const statuses = async (count: number, send: () => Promise<{ status: number }>) => {
    const seen: number[] = [];
    for (let index = 0; index < count; index += 1) seen.push((await send()).status);
    return seen;
  };

  beforeAll(async () => {
    platform = await startPlatform({ env: SMALL_BUDGETS });
  });
  afterAll(() => platform.close());

  it('services-api: answers carry RateLimit-Policy and RateLimit for the principal and the tenant', async () => {
    const { tenantID, headers } = await tenantWithMembers(1);
    const answer = await shortcuts(tenantID, headers[0]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-policy')).toBe('"principal";q=4;w=60, "tenant";q=6;w=60');
    expect(answer.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=(60|59), "tenant";r=5;t=(60|59)$/);
  });

  it('services-api: the request past the principal\'s budget is 429 1071 with Retry-After, in the envelope', async () => {
    const { tenantID, headers } = await tenantWithMembers(1);
    expect(await statuses(4, () => shortcuts(tenantID, headers[0]))).toEqual([200, 200, 200, 200]);
    const limited = await shortcuts(tenantID, headers[0]);
    expect(limited.status).toBe(429);
    expect(singleError(limited.body)).toEqual(TOO_MANY);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/^"principal";r=0;t=\d+$/);
  });

  it('services-api: the tenant\'s budget holds for all its principals together, and limits no other tenant', async () => {
    const busy = await tenantWithMembers(3);
    // 3 + 3 requests from two members spend the tenant's 6 without reaching either member's 4.
    expect(await statuses(3, () => shortcuts(busy.tenantID, busy.headers[0]))).toEqual([200, 200, 200]);
    expect(await statuses(3, () => shortcuts(busy.tenantID, busy.headers[1]))).toEqual([200, 200, 200]);
    const third = await shortcuts(busy.tenantID, busy.headers[2]);
    expect(third.status).toBe(429);
    expect(singleError(third.body)).toEqual(TOO_MANY);
    expect(third.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=\d+, "tenant";r=0;t=\d+$/);

    const quiet = await tenantWithMembers(1);
    expect((await shortcuts(quiet.tenantID, quiet.headers[0])).status).toBe(200);
  });

  it('services-api: requests refused by the access check (403) spend nothing of the tenant\'s budget', async () => {
    const target = await tenantWithMembers(2);
    const outsider = await tenantWithMembers(1);
    expect(await statuses(4, () => shortcuts(target.tenantID, outsider.headers[0]))).toEqual([403, 403, 403, 403]);
    expect(await statuses(3, () => shortcuts(target.tenantID, target.headers[0]))).toEqual([200, 200, 200]);
    expect(await statuses(3, () => shortcuts(target.tenantID, target.headers[1]))).toEqual([200, 200, 200]);
    expect((await shortcuts(target.tenantID, target.headers[1])).status).toBe(429);
  });

  it('services-api: strangers who pipeline requests and reset the connection spend nothing of the tenant\'s budget', async () => {
    const target = await tenantWithMembers(1);
    const strangers = [await tenantWithMembers(1), await tenantWithMembers(1)];
    for (const stranger of strangers) {
      await pipelineAndReset(platform.servicesUrl, `/v1/tenants/${target.tenantID}/notifications`, stranger.headers[0], 6);
    }
    // Every pipelined request was served (each stranger's own budget of 4 is spent), answers unread.
    for (const stranger of strangers) {
      await eventually(async () => expect((await shortcuts(stranger.tenantID, stranger.headers[0])).status).toBe(429));
    }
    const first = await shortcuts(target.tenantID, target.headers[0]);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=\d+, "tenant";r=5;t=\d+$/);
  });

  it('services-api: requests refused before the access check (400 1002) spend nothing of the tenant\'s budget either', async () => {
    const target = await tenantWithMembers(2);
    const outsider = await tenantWithMembers(1);
    const invalid = () => request(platform.servicesUrl, `/v1/tenants/${target.tenantID}/operators/shortcuts?page=none`, { headers: outsider.headers[0] });
    expect(await statuses(4, invalid)).toEqual([400, 400, 400, 400]);
    expect(await statuses(3, () => shortcuts(target.tenantID, target.headers[0]))).toEqual([200, 200, 200]);
    expect(await statuses(3, () => shortcuts(target.tenantID, target.headers[1]))).toEqual([200, 200, 200]);
    expect((await shortcuts(target.tenantID, target.headers[1])).status).toBe(429);
  });

  it('core-tenants: an operation on no tenant is charged to the principal only, and its refusals are counted', async () => {
    const metricsUrl = await platform.apps['core-tenants']!.get(MetricsListener).listen(0, '127.0.0.1');
    const refusals = async () => (await scrape(metricsUrl)).value('platform_rate_limit_refusals_total', { limit: 'quota:principal' }) ?? 0;
    const refusedBefore = await refusals();
    const { headers } = await tenantWithMembers(1);
    const tenants = () => request(platform.coreUrl, '/tenants', { headers: headers[0] });
    const first = await tenants();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"principal";q=4;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=\d+$/);
    expect(await statuses(3, tenants)).toEqual([200, 200, 200]);
    const limited = await tenants();
    expect(limited.status).toBe(429);
    expect(singleError(limited.body)).toEqual(TOO_MANY);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refusals()).toBe(refusedBefore + 1);
  });

  it('core-tenants: a plugin connection is charged with its own tenant, apart from the other apps\' budgets', async () => {
    const { tenantID } = await tenantWithMembers(1);
    const plugin = await platform.fixtures.plugin();
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
    const tenant = () => request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: connection.authorization } });
    const first = await tenant();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=\d+, "tenant";r=5;t=\d+$/);
    expect(await statuses(4, tenant)).toEqual([200, 200, 200, 429]);
    // services-api keeps its own budgets: the same connection is not limited there.
    const elsewhere = await request(platform.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers: { authorization: connection.authorization } });
    expect(elsewhere.status).not.toBe(429);
  });

  it('plugins-helpdesk: the request past the budget is 429 1071 with Retry-After and the headers', async () => {
    const { tenantID, headers } = await tenantWithMembers(1);
    // The tenant's budget is charged once the helpdesk access rule admits the caller: the tenant has the helpdesk connected.
    const helpdesk = await platform.fixtures.plugin({ name: 'Central de ajuda', urn: 'urn:plugin:helpdesk' });
    await platform.fixtures.connection(tenantID, helpdesk.pluginID);
    const domains = () => request(platform.helpdeskUrl, `/helpdesk/v1/tenants/${tenantID}/helpdesk/domains`, { headers: headers[0] });
    const first = await domains();
    expect(first.headers.get('ratelimit-policy')).toBe('"principal";q=4;w=60, "tenant";q=6;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"principal";r=3;t=\d+, "tenant";r=5;t=\d+$/);
    await statuses(3, domains);
    const limited = await domains();
    expect(limited.status).toBe(429);
    expect(singleError(limited.body)).toEqual(TOO_MANY);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('request budgets under requests sent at once', () => {
  let platform: TestPlatform;
  let redis: TestRedis;
  /** Under 200 a window: leased one request at a time, so requests sent at once each need a lease of their own. */
  const PRINCIPAL_BUDGET = 100;

  /** A tenant with `count` new plugin connections (each a principal of its own), of as many plugins. */
  const connectionsOf = async (count: number) => {
    const tenantID = await platform.fixtures.tenant();
    const connections = [];
    for (let index = 0; index < count; index += 1) connections.push(await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID));
    return { tenantID, connections };
  };
  const sessions = (tenantID: string, authorization: string) =>
    request(platform.servicesUrl, `/v1/tenants/${tenantID}/contacts/${randomUUID()}/sessions`, { headers: { authorization } });
  /** `count` requests of each connection, all sent at once on the one services-api replica. */
  const atOnce = (tenantID: string, authorizations: string[], count: number) =>
    Promise.all(authorizations.flatMap((authorization) => Array.from({ length: count }, () => sessions(tenantID, authorization))));
  const principalCount = async (tenantID: string, pluginConnectionID: string) =>
    Number(await redis.get(`quota:v1:services-api:principal:pluginConnection:${pluginConnectionID}:{t:${tenantID}}`));

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { RATE_LIMIT_PRINCIPAL: `${PRINCIPAL_BUDGET}/60s`, RATE_LIMIT_TENANT: '10000/60s' } });
    redis = createTestRedis({ maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await platform.close();
  });

  it('services-api: new principals sending 8 and then 20 requests at once, under their budget, are all served, and each one\'s counter is what it was served', async () => {
    const { tenantID, connections } = await connectionsOf(12);
    for (const count of [8, 20]) {
      const answers = await atOnce(tenantID, connections.map(({ authorization }) => authorization), count);
      expect(answers.map(({ status }) => status).filter((status) => status !== 200)).toEqual([]);
    }
    for (const { pluginConnectionID } of connections) expect(await principalCount(tenantID, pluginConnectionID)).toBe(28);
  });

  it('services-api: requests at once past the budget: the budget is served, the rest are 429 1071 with r=0 and the window\'s Retry-After, and the counter stays at the budget', async () => {
    const { tenantID, connections } = await connectionsOf(1);
    const [{ authorization, pluginConnectionID }] = connections;
    const answers = await atOnce(tenantID, [authorization], PRINCIPAL_BUDGET + 30);
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(PRINCIPAL_BUDGET);
    const refused = answers.filter(({ status }) => status !== 200);
    expect(refused).toHaveLength(30);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(singleError(answer.body)).toEqual(TOO_MANY);
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(answer.headers.get('ratelimit')).toBe(`"principal";r=0;t=${retryAfter}`);
    }
    expect(await principalCount(tenantID, pluginConnectionID)).toBe(PRINCIPAL_BUDGET);
    // Still refused afterwards, and still nothing counted past the budget.
    expect((await sessions(tenantID, authorization)).status).toBe(429);
    expect(await principalCount(tenantID, pluginConnectionID)).toBe(PRINCIPAL_BUDGET);
  });
});

describe('request budgets turned off', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ apps: ['services-api'], env: { RATE_LIMIT_PRINCIPAL: 'off', RATE_LIMIT_TENANT: '2/60s' } });
  });
  afterAll(() => platform.close());

  it('with both off, nothing is limited and no budget header is sent', async () => {
    const other = await startPlatform({ apps: ['services-api'], resetRedis: false, env: { RATE_LIMIT_PRINCIPAL: 'off', RATE_LIMIT_TENANT: 'off' } });
    try {
      const tenantID = await other.fixtures.tenant();
      const operator = await other.fixtures.operator();
      await other.fixtures.membership(tenantID, operator.operatorID, 'owner');
      const headers = { authorization: `Bearer ${await other.tokenFor(operator.operatorID)}` };
      for (let index = 0; index < 8; index += 1) {
        const answer = await request(other.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit')).toBeNull();
        expect(answer.headers.get('ratelimit-policy')).toBeNull();
      }
    } finally {
      await other.close();
    }
  });

  it('with the principal\'s budget off, only the tenant\'s applies', async () => {
    const tenantID = await platform.fixtures.tenant();
    const operator = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
    const headers = { authorization: `Bearer ${await platform.tokenFor(operator.operatorID)}` };
    const first = await request(platform.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers });
    expect(first.headers.get('ratelimit-policy')).toBe('"tenant";q=2;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"tenant";r=1;t=\d+$/);
    expect((await request(platform.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers })).status).toBe(200);
    expect((await request(platform.servicesUrl, `/v1/tenants/${tenantID}/operators/shortcuts`, { headers })).status).toBe(429);
  });
});
