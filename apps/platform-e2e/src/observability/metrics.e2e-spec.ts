import { MetricsListener } from '@platform/observability';
import { freePort, request } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { AppName, startPlatform, TestPlatform } from '../support/platform';

const REQUESTS = 'platform_http_request_duration_seconds';

/**
 * Each app's Prometheus metrics, scraped over HTTP from the port of its own
 * that the app's main opens (here any free one), after real traffic.
 */
describe('GET /metrics of each app', () => {
  let platform: TestPlatform;
  const metricsUrl = {} as Record<AppName, string>;
  let tenantID: string;
  let ownerToken: string;

  beforeAll(async () => {
    // Nothing listens there: every sign-up mail fails and waits for its retry, an hour later.
    const closedSmtpPort = await freePort();
    platform = await startPlatform({
      env: {
        SIGN_IN_ATTEMPTS_PER_ADDRESS: '1',
        SMTP_URL: `smtp://127.0.0.1:${closedSmtpPort}`,
        SMTP_TIMEOUT_MS: '1000',
        EMAIL_DELIVERABILITY_CHECK: 'false',
        EMAIL_RETRY_DELAY_SECONDS: '3600',
        JOBS_POLLING_INTERVAL_MS: '500',
      },
    });
    for (const app of ['core-tenants', 'services-api', 'plugins-helpdesk'] as const) {
      metricsUrl[app] = await platform.apps[app]!.get(MetricsListener).listen(0, '127.0.0.1');
    }
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(() => platform?.close());

  it('shows the request-duration histogram of each app by route template and status after traffic', async () => {
    const bearer = { authorization: `Bearer ${ownerToken}` };
    expect((await request(platform.coreUrl, '/tenants', { headers: bearer })).status).toBe(200);
    expect((await request(platform.servicesUrl, `/v1/tenants/${tenantID}/notifications`, { headers: bearer })).status).toBe(200);
    expect((await request(platform.helpdeskUrl, `/helpdesk/v1/tenants/${tenantID}/helpdesk/domains`)).status).toBe(401);
    const strayPath = `/v1/no-such-thing/${randomUUID()}`;
    expect((await request(platform.servicesUrl, strayPath)).status).toBe(404);

    const core = await scrape(metricsUrl['core-tenants']);
    const services = await scrape(metricsUrl['services-api']);
    const helpdesk = await scrape(metricsUrl['plugins-helpdesk']);
    expect(core.value(`${REQUESTS}_count`, { app: 'core-tenants', method: 'GET', route: '/tenants', status: '200' })).toBe(1);
    expect(core.value(`${REQUESTS}_bucket`, { route: '/tenants', status: '200', le: '+Inf' })).toBe(1);
    expect(core.value(`${REQUESTS}_sum`, { route: '/tenants', status: '200' })).toBeGreaterThan(0);
    expect(services.value(`${REQUESTS}_count`, { app: 'services-api', method: 'GET', route: '/v1/tenants/:tenantID/notifications', status: '200' })).toBe(1);
    expect(helpdesk.value(`${REQUESTS}_count`, { app: 'plugins-helpdesk', method: 'GET', route: '/helpdesk/v1/tenants/:tenantID/helpdesk/domains', status: '401' })).toBe(1);
    // A path no route matches is one series whatever the path; no raw URL becomes a label.
    expect(services.value(`${REQUESTS}_count`, { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    for (const scraped of [core, services, helpdesk]) {
      expect(scraped.text).not.toContain(tenantID);
      expect(scraped.text).not.toContain(strayPath);
    }
    // Scrapes are not client requests: they are not counted, and /metrics is not on the API's port.
    expect(core.find(`${REQUESTS}_count`, { route: '/metrics' })).toEqual([]);
    expect((await request(platform.servicesUrl, '/metrics')).status).toBe(404);
  });

  it('serves nothing else on the metrics port', async () => {
    const base = new URL(metricsUrl['core-tenants']).origin;
    expect((await request(base, '/tenants')).status).toBe(404);
    const posted = await request(base, '/metrics', { method: 'POST', body: {} });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });

  it('shows the PostgreSQL pools and the process', async () => {
    const services = await scrape(metricsUrl['services-api']);
    // Gauges are read as present and well-formed, never at an instant value:
    // background work (job workers, sweeps) may hold or wait for a connection
    // at the moment of the scrape.
    for (const pool of ['app', 'jobs']) {
      expect(services.value('platform_db_pool_connections_in_use', { pool })).toBeGreaterThanOrEqual(0);
      expect(services.value('platform_db_pool_waiting_requests', { pool })).toBeGreaterThanOrEqual(0);
    }
    const core = await scrape(metricsUrl['core-tenants']);
    expect(core.value('platform_db_pool_waiting_requests', { app: 'core-tenants', pool: 'app' })).toBeGreaterThanOrEqual(0);
    expect(core.value('process_cpu_user_seconds_total', { app: 'core-tenants' })).toBeGreaterThan(0);
  });

  it('counts a rate-limit refusal once a client got 429', async () => {
    const operator = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    const signIn = () => request(platform.coreUrl, '/v1/operators/sign-in', { method: 'POST', body: { operatorEmail: operator.email, password: 'wrong' } });
    const before = (await scrape(metricsUrl['core-tenants'])).value('platform_rate_limit_refusals_total', { limit: 'sign-in:address-client' }) ?? 0;
    expect((await signIn()).status).toBe(401);
    expect((await signIn()).status).toBe(429);
    const after = await scrape(metricsUrl['core-tenants']);
    expect(after.value('platform_rate_limit_refusals_total', { limit: 'sign-in:address-client' })).toBe(before + 1);
    expect(after.value(`${REQUESTS}_count`, { route: '/v1/operators/sign-in', status: '429' })).toBe(1);
  });

  it('shows a sign-up mail waiting in its job queue, and the failed delivery as a provider error', async () => {
    const initial = await scrape(metricsUrl['services-api']);
    expect(initial.value('platform_job_queue_depth', { queue: 'sign-up-mail' })).toBe(0);
    expect(initial.value('platform_job_queue_depth', { queue: 'campaign-model-submission' })).toBe(0);
    expect(initial.value('platform_job_queue_oldest_due_age_seconds', { queue: 'sign-up-mail' })).toBe(0);

    const asked = await request(platform.servicesUrl, '/v1/operators/email-verification', {
      method: 'POST',
      body: { operatorEmail: `metrics-${randomUUID()}@acme-support.com.br`, operatorFirstname: 'Ana' },
    });
    expect(asked.status).toBe(202);

    await eventually(async () => {
      const services = await scrape(metricsUrl['services-api']);
      expect(services.value('platform_provider_call_duration_seconds_count', { provider: 'email', operation: 'send', outcome: 'error' })).toBe(1);
      // Failed once, it waits for its retry (an hour away): queued, not yet due.
      expect(services.value('platform_job_queue_depth', { queue: 'sign-up-mail' })).toBe(1);
      expect(services.value('platform_job_queue_oldest_due_age_seconds', { queue: 'sign-up-mail' })).toBe(0);
    });
  });

  it('shows the transport request, the billing calls and the cancellation backlog of operation 1', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const subscriptionItemID = `si_${randomUUID().slice(0, 12)}`;
    platform.billing.addItem(subscriptionItemID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID });
    platform.billing.failWithStatus = 500;

    const removed = await request(platform.servicesUrl, `/v1/tenants/${tenantID}/plugins/connections/${connection.pluginConnectionID}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(removed.status).toBe(200);
    const services = await scrape(metricsUrl['services-api']);
    expect(services.value('platform_transport_request_duration_seconds_count', { pattern: 'plugin-connections.delete', outcome: 'reply' })).toBe(1);

    // The provider fails: the cancellation stays in the backlog, retried.
    await eventually(async () => {
      const core = await scrape(metricsUrl['core-tenants']);
      expect(core.value('platform_provider_call_duration_seconds_count', { provider: 'billing', operation: 'cancelSubscriptionItem', outcome: 'error' })).toBeGreaterThanOrEqual(1);
      expect(core.value('platform_billing_cancellation_backlog')).toBe(1);
      expect(core.value('platform_billing_cancellation_oldest_age_seconds')).toBeGreaterThan(0);
    });

    // The provider is back: the cancellation goes through and the backlog empties.
    platform.billing.failWithStatus = undefined;
    await eventually(async () => {
      const core = await scrape(metricsUrl['core-tenants']);
      expect(core.value('platform_provider_call_duration_seconds_count', { provider: 'billing', operation: 'cancelSubscriptionItem', outcome: 'ok' })).toBe(1);
      expect(core.value('platform_billing_cancellation_backlog')).toBe(0);
      expect(core.value('platform_billing_cancellation_oldest_age_seconds')).toBe(0);
    });
  });
});
