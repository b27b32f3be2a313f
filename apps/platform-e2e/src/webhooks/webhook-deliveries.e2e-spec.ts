import { WebhookDeliveryRetention } from '@apps/services-api';
import { Clock } from '@platform/scheduling';
import { MetricsListener } from '@platform/observability';
import { singleError, webhookSecret } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { describeStandardRefusals } from '../support/standard-refusals';
import { DELIVERY_TIMEOUT_MS, startWebhookDeliveryPlatform, WebhookDeliveryPlatform } from './webhook-delivery-platform';
import { verified } from './webhook-receiver';

const UNKNOWN_ID = '5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f';

/**
 * Signed outbound webhooks end to end: services-api's delivery engine
 * against a receiver on loopback that verifies every delivery with the
 * Standard Webhooks library, as a tenant's receiver would.
 */
describe('webhook deliveries', () => {
  let context: WebhookDeliveryPlatform;
  let path = 0;
  /** A receiver path of its own for each endpoint, so tests do not see each other's deliveries. */
  const nextPath = () => `hooks/${++path}`;

  const api = () => context.platform.api.services;
  const endpointPath = (webhookEndpointID: string, tenantID = context.tenantID) => ({ path: { tenantID, webhookEndpointID } });
  const list = (webhookEndpointID: string, query: Record<string, string> = {}, authorization = context.owner.authorization) =>
    api().GET('/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/deliveries', {
      params: { ...endpointPath(webhookEndpointID), query: query as never },
      headers: { authorization },
    });
  const read = (webhookEndpointID: string, webhookDeliveryID: string, authorization = context.owner.authorization) =>
    api().GET('/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/deliveries/{webhookDeliveryID}', {
      params: { path: { tenantID: context.tenantID, webhookEndpointID, webhookDeliveryID } },
      headers: { authorization },
    });
  const retry = (webhookEndpointID: string, webhookDeliveryID: string, authorization = context.owner.authorization) =>
    api().POST('/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/deliveries/{webhookDeliveryID}/retries', {
      params: { path: { tenantID: context.tenantID, webhookEndpointID, webhookDeliveryID } },
      headers: { authorization },
    });
  const sendTestEvent = (webhookEndpointID: string, authorization = context.owner.authorization, headers: Record<string, string> = {}) =>
    api().POST('/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/test-events', {
      params: endpointPath(webhookEndpointID),
      headers: { authorization, ...headers },
    });
  /** The delivery as the log shows it once `done` holds. */
  const readUntil = (webhookEndpointID: string, webhookDeliveryID: string, done: (status: string) => boolean) =>
    eventually(async () => {
      const { data } = await read(webhookEndpointID, webhookDeliveryID);
      if (!done(data!.data.status)) throw new Error(`delivery still ${JSON.stringify(data!.data)}`);
      return data!.data;
    });
  /** An endpoint on the receiver; subscribed to a type no test emits unless told, so only its test's deliveries reach it. */
  const endpointAt = (receiverPath: string, options: { tenantID?: string; eventTypes?: string[]; enabled?: boolean; previousSecret?: { secret: string; expiresAt: Date } } = {}) =>
    context.webhooks.endpoint(options.tenantID ?? context.tenantID, {
      url: context.receiver.url(receiverPath),
      eventTypes: options.eventTypes ?? ['pluginConnection.installed'],
      enabled: options.enabled,
      previousSecret: options.previousSecret,
    });
  const roleChanged = (tenantID: string, operatorID: string, role: string) =>
    context.webhooks.event(tenantID, { type: 'member.roleChanged', orderingKey: `member:${operatorID}`, data: { operatorID, previousRole: 'member', role } });

  beforeAll(async () => {
    context = await startWebhookDeliveryPlatform();
  });
  afterAll(() => context?.close());

  it('sends a test event, signed under Standard Webhooks, and logs it with its attempt', async () => {
    const receiverPath = nextPath();
    const endpoint = await endpointAt(receiverPath);
    const sent = await sendTestEvent(endpoint.webhookEndpointID);
    expect(sent.response.status).toBe(202);
    const delivery = sent.data!.data;
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attemptCount: 0 });

    const [received] = await eventually(() => {
      expect(context.receiver.to(receiverPath)).toHaveLength(1);
      return context.receiver.to(receiverPath);
    });
    expect(verified(endpoint.secret, received)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhookEndpointID: endpoint.webhookEndpointID, message: 'A test event sent on request.' },
    });
    expect(received.headers['webhook-id']).toBe(delivery.eventID);
    expect(received.headers['content-type']).toBe('application/json');
    expect(() => verified(webhookSecret(), received)).toThrow();

    const logged = await readUntil(endpoint.webhookEndpointID, delivery.webhookDeliveryID, (status) => status === 'succeeded');
    expect(logged).toMatchObject({ attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null, completedAt: expect.any(String) });
    expect(logged.attempts).toEqual([{ attemptedAt: expect.any(String), statusCode: 200, durationMs: expect.any(Number), error: null, succeeded: true }]);
  });

  it("fans an event out to the tenant's enabled endpoints subscribed to its type, and to no other", async () => {
    const paths = { subscribed: nextPath(), otherType: nextPath(), disabled: nextPath(), otherTenant: nextPath() };
    const subscribed = await endpointAt(paths.subscribed, { eventTypes: ['member.roleChanged'] });
    await endpointAt(paths.otherType, { eventTypes: ['helpdeskDomain.added'] });
    await endpointAt(paths.disabled, { eventTypes: ['member.roleChanged'], enabled: false });
    await endpointAt(paths.otherTenant, { tenantID: context.otherTenantID, eventTypes: ['member.roleChanged'] });

    const eventID = await roleChanged(context.tenantID, context.member.operatorID, 'owner');
    const [received] = await eventually(() => {
      expect(context.receiver.to(paths.subscribed)).toHaveLength(1);
      return context.receiver.to(paths.subscribed);
    });
    expect(received.headers['webhook-id']).toBe(eventID);
    expect(verified(subscribed.secret, received)).toEqual({
      type: 'member.roleChanged',
      timestamp: expect.any(String),
      data: { operatorID: context.member.operatorID, previousRole: 'member', role: 'owner' },
    });
    // A later test event to the subscribed endpoint is a barrier: the fan-out was done with long before it arrives.
    await sendTestEvent(subscribed.webhookEndpointID);
    await eventually(() => expect(context.receiver.to(paths.subscribed)).toHaveLength(2));
    expect([paths.otherType, paths.disabled, paths.otherTenant].map((other) => context.receiver.to(other).length)).toEqual([0, 0, 0]);
  });

  it('signs with both secrets during a rotation, so a receiver holding either verifies', async () => {
    const receiverPath = nextPath();
    const previous = webhookSecret();
    const endpoint = await endpointAt(receiverPath, { previousSecret: { secret: previous, expiresAt: new Date(Date.now() + 3_600_000) } });
    await sendTestEvent(endpoint.webhookEndpointID);
    const [received] = await eventually(() => {
      expect(context.receiver.to(receiverPath)).toHaveLength(1);
      return context.receiver.to(receiverPath);
    });
    expect(received.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verified(endpoint.secret, received).type).toBe('webhook.test');
    expect(verified(previous, received).type).toBe('webhook.test');
  });

  it('stops signing with the previous secret once its grace period ended', async () => {
    const receiverPath = nextPath();
    const previous = webhookSecret();
    const endpoint = await endpointAt(receiverPath, { previousSecret: { secret: previous, expiresAt: new Date(Date.now() - 1_000) } });
    await sendTestEvent(endpoint.webhookEndpointID);
    const [received] = await eventually(() => {
      expect(context.receiver.to(receiverPath)).toHaveLength(1);
      return context.receiver.to(receiverPath);
    });
    expect(received.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verified(endpoint.secret, received).type).toBe('webhook.test');
    expect(() => verified(previous, received)).toThrow();
  });

  it('retries after 500s and after a timeout, with the same webhook-id, until the receiver takes it', async () => {
    const receiverPath = nextPath();
    context.receiver.script(receiverPath, 500, 'hang', 503);
    const endpoint = await endpointAt(receiverPath);
    const delivery = (await sendTestEvent(endpoint.webhookEndpointID)).data!.data;

    const logged = await readUntil(endpoint.webhookEndpointID, delivery.webhookDeliveryID, (status) => status !== 'pending');
    expect(logged).toMatchObject({ status: 'succeeded', attemptCount: 4, lastStatusCode: 200 });
    expect(logged.attempts.map((attempt) => [attempt.statusCode, attempt.error, attempt.succeeded])).toEqual([
      [500, 'answered 500', false],
      [null, `no answer within ${DELIVERY_TIMEOUT_MS} ms`, false],
      [503, 'answered 503', false],
      [200, null, true],
    ]);
    const received = context.receiver.to(receiverPath);
    expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(new Set([delivery.eventID]));
    for (const request of received) expect(verified(endpoint.secret, request).type).toBe('webhook.test');
    // One attempt at a time: each retry starts after the attempt before it was answered or given up.
    expect(context.receiver.mostAtOnce(receiverPath)).toBe(1);
  });

  it('logs a destination the outbound policy refuses as unreachable, like a closed port, and connects nowhere', async () => {
    // Loopback but not 127.0.0.1, the one address the tests allow (OUTBOUND_ALLOW): refused before any connection.
    const endpoint = await context.webhooks.endpoint(context.tenantID, { url: 'http://127.0.0.2:9/hook', eventTypes: ['pluginConnection.installed'] });
    const delivery = (await sendTestEvent(endpoint.webhookEndpointID)).data!.data;
    const logged = await eventually(async () => {
      const { data } = await read(endpoint.webhookEndpointID, delivery.webhookDeliveryID);
      expect(data!.data.attempts.length).toBeGreaterThan(0);
      return data!.data;
    });
    expect(logged.attempts[0]).toMatchObject({ statusCode: null, error: 'unreachable', succeeded: false });
  });

  it('fails a delivery once its retries run out; an owner re-sends it by hand, once, and not after it succeeded', async () => {
    const receiverPath = nextPath();
    context.receiver.answerAlways(receiverPath, 500);
    const endpoint = await endpointAt(receiverPath);
    const delivery = (await sendTestEvent(endpoint.webhookEndpointID)).data!.data;
    const failed = await readUntil(endpoint.webhookEndpointID, delivery.webhookDeliveryID, (status) => status !== 'pending');
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 4, lastStatusCode: 500, nextAttemptAt: null, completedAt: expect.any(String) });

    const failedAgain = await retry(endpoint.webhookEndpointID, delivery.webhookDeliveryID);
    expect(failedAgain.response.status).toBe(202);
    expect(failedAgain.data!.data).toMatchObject({ status: 'pending', attemptCount: 4, completedAt: null });
    expect(await readUntil(endpoint.webhookEndpointID, delivery.webhookDeliveryID, (status) => status !== 'pending')).toMatchObject({ status: 'failed', attemptCount: 5 });

    context.receiver.answerAlways(receiverPath, undefined);
    await retry(endpoint.webhookEndpointID, delivery.webhookDeliveryID);
    expect(await readUntil(endpoint.webhookEndpointID, delivery.webhookDeliveryID, (status) => status !== 'pending')).toMatchObject({ status: 'succeeded', attemptCount: 6 });
    expect(new Set(context.receiver.to(receiverPath).map((request) => request.headers['webhook-id']))).toEqual(new Set([delivery.eventID]));

    const succeeded = await retry(endpoint.webhookEndpointID, delivery.webhookDeliveryID);
    expect(succeeded.response.status).toBe(409);
    expect(singleError(succeeded.error)).toMatchObject({ error_code: 1967, error: 'WebhookDeliveryAlreadySucceededError' });
  });

  it('disables an endpoint that keeps failing past WEBHOOK_DISABLE_AFTER_HOURS, saying why, attempts its deliveries no more until it is enabled again', async () => {
    const receiverPath = nextPath();
    context.receiver.answerAlways(receiverPath, 500);
    const endpoint = await endpointAt(receiverPath);
    const first = (await sendTestEvent(endpoint.webhookEndpointID)).data!.data;
    // The first failure recorded (with the endpoint's failing_since, in one transaction), not only
    // received: backdated before that, the first failure itself would find it overdue.
    await eventually(async () => expect((await read(endpoint.webhookEndpointID, first.webhookDeliveryID)).data!.data).toMatchObject({ attemptCount: 1 }));
    expect(context.receiver.to(receiverPath)).toHaveLength(1);
    // Failing for 73 hours by now: the next failure disables it (the default is 72).
    const since = new Date(Date.now() - 73 * 3_600_000);
    await context.webhooks.failingSince(endpoint.webhookEndpointID, since);

    const endpointRow = await eventually(async () => {
      const [row] = await context.platform.dataSource.query('SELECT enabled, disabled_at, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.webhookEndpointID]);
      expect(row.enabled).toBe(false);
      return row;
    });
    expect(endpointRow.disabled_reason).toBe(`failing since ${since.toISOString()}: last answer 500`);
    const attemptsWhenDisabled = context.receiver.to(receiverPath).length;
    expect(attemptsWhenDisabled).toBe(2);

    const refusedRetry = await retry(endpoint.webhookEndpointID, first.webhookDeliveryID);
    expect(refusedRetry.response.status).toBe(409);
    expect(singleError(refusedRetry.error)).toMatchObject({ error_code: 1968, error: 'WebhookEndpointDisabledError' });
    const refusedTest = await sendTestEvent(endpoint.webhookEndpointID);
    expect(refusedTest.response.status).toBe(409);
    expect(singleError(refusedTest.error).error_code).toBe(1968);

    // Its pending delivery stays pending, unattempted: its retry time passes while another endpoint's delivery (a barrier) goes through.
    const barrierPath = nextPath();
    const barrier = await endpointAt(barrierPath);
    await eventually(async () => {
      const [{ due }] = await context.platform.dataSource.query('SELECT next_attempt_at <= clock_timestamp() AS due FROM webhook_deliveries WHERE id = $1', [first.webhookDeliveryID]);
      expect(due, 'retry time passed').toBe(true);
    });
    await sendTestEvent(barrier.webhookEndpointID);
    await eventually(() => expect(context.receiver.to(barrierPath)).toHaveLength(1));
    expect(context.receiver.to(receiverPath)).toHaveLength(attemptsWhenDisabled);
    expect((await read(endpoint.webhookEndpointID, first.webhookDeliveryID)).data!.data).toMatchObject({ status: 'pending', attemptCount: 2 });

    // Enabled again (as the endpoints API does) with the receiver fixed: the kept delivery goes out, and the run of failures ends.
    context.receiver.answerAlways(receiverPath, undefined);
    await context.platform.dataSource.query('UPDATE webhook_endpoints SET enabled = true, disabled_at = NULL, disabled_reason = NULL WHERE id = $1', [endpoint.webhookEndpointID]);
    expect(await readUntil(endpoint.webhookEndpointID, first.webhookDeliveryID, (status) => status === 'succeeded')).toMatchObject({ attemptCount: 3, lastStatusCode: 200 });
    const [{ failing_since }] = await context.platform.dataSource.query('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpoint.webhookEndpointID]);
    expect(failing_since).toBeNull();
  });

  it('delivers the events of one subject in the order they occurred, the next waiting while the one before is retried', async () => {
    const receiverPath = nextPath();
    context.receiver.script(receiverPath, 500, 500);
    await endpointAt(receiverPath, { eventTypes: ['member.roleChanged'] });
    const subject = context.owner.operatorID;
    const eventIDs = [await roleChanged(context.tenantID, subject, 'member'), await roleChanged(context.tenantID, subject, 'owner'), await roleChanged(context.tenantID, subject, 'member')];

    const succeeded = () => new Set(context.receiver.to(receiverPath).filter((request) => request.answer === 200).map((request) => request.headers['webhook-id']));
    await eventually(() => expect(succeeded().size).toBe(3));
    const received = context.receiver.to(receiverPath).map((request) => [request.headers['webhook-id'], request.answer]);
    // At least once: on a loaded machine an answered attempt can still pass its time limit and be sent again,
    // so a repeat of the same event right after itself is allowed; an event before the previous one's success is not.
    const distinct = received.filter(([id, answer], index) => index === 0 || id !== received[index - 1][0] || answer !== received[index - 1][1]);
    expect(distinct).toEqual([
      [eventIDs[0], 500],
      [eventIDs[0], 200],
      [eventIDs[1], 200],
      [eventIDs[2], 200],
    ]);
    expect(received.filter(([id, answer]) => id === eventIDs[0] && answer === 500)).toHaveLength(2);
  });

  it('orders the events of one subject by the exact instant they occurred, also within one millisecond', async () => {
    const receiverPath = nextPath();
    await endpointAt(receiverPath, { eventTypes: ['member.roleChanged'] });
    const subject = `member:${context.owner.operatorID}`;
    const data = { operatorID: context.owner.operatorID, previousRole: 'member', role: 'owner' };
    // Microseconds apart, and ids in the opposite order: only the exact instant can order them.
    const eventIDs = ['ffffffff-0000-4000-8000-000000000001', '88888888-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
    for (const [index, id] of eventIDs.entries()) {
      await context.webhooks.event(context.tenantID, { type: 'member.roleChanged', orderingKey: subject, data, id, occurredAt: `2026-11-27T03:00:00.12345${index}Z` });
    }
    await eventually(() => expect(context.receiver.to(receiverPath).filter((request) => request.answer === 200)).toHaveLength(3));
    expect(context.receiver.to(receiverPath).map((request) => request.headers['webhook-id'])).toEqual(eventIDs);
  });

  it("goes on delivering other tenants' events while one endpoint hangs", async () => {
    const hangingPath = nextPath();
    const healthyPath = nextPath();
    context.receiver.answerAlways(hangingPath, 'hang');
    const hanging = await endpointAt(hangingPath, { eventTypes: ['member.removed'] });
    await endpointAt(healthyPath, { tenantID: context.otherTenantID, eventTypes: ['member.removed'] });
    // Unordered subjects, all due at once: more than the workers there are.
    for (let index = 0; index < 6; index += 1) {
      await context.webhooks.event(context.tenantID, { type: 'member.removed', orderingKey: `member:hanging-${index}`, data: { operatorID: UNKNOWN_ID, role: 'member' } });
    }
    await eventually(() => expect(context.receiver.to(hangingPath).length).toBeGreaterThan(0));

    for (let index = 0; index < 4; index += 1) {
      await context.webhooks.event(context.otherTenantID, { type: 'member.removed', orderingKey: `member:healthy-${index}`, data: { operatorID: UNKNOWN_ID, role: 'member' } });
    }
    await eventually(() => expect(context.receiver.to(healthyPath)).toHaveLength(4));
    const lastArrival = Math.max(...context.receiver.to(healthyPath).map((request) => request.receivedAt));
    // Not queued behind the hanging endpoint: all four arrived before its six deliveries had all
    // been tried (one at a time, each given up after DELIVERY_TIMEOUT_MS). Counted, not timed.
    expect(context.receiver.to(hangingPath).filter((request) => request.receivedAt <= lastArrival).length).toBeLessThan(6);
    const [{ pending }] = await context.platform.dataSource.query(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`, [
      hanging.webhookEndpointID,
    ]);
    expect(pending).toBeGreaterThan(0);
    // At most one attempt in flight for the hanging endpoint at any time: each started after the one before gave up.
    expect(context.receiver.mostAtOnce(hangingPath)).toBe(1);
    context.receiver.answerAlways(hangingPath, 500);
  });

  it('skips and disables an endpoint holding WEBHOOK_MAX_PENDING_PER_ENDPOINT pending deliveries', async () => {
    const receiverPath = nextPath();
    const endpoint = await endpointAt(receiverPath, { eventTypes: ['helpdeskDomain.added'] });
    await context.platform.dataSource.query(
      `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, payload, occurred_at, next_attempt_at)
       SELECT $1, $2, gen_random_uuid(), 'helpdeskDomain.added', '{}'::jsonb, now(), now() + interval '1 hour' FROM generate_series(1, 20)`,
      [context.tenantID, endpoint.webhookEndpointID],
    );
    const eventID = await context.webhooks.event(context.tenantID, { type: 'helpdeskDomain.added', orderingKey: 'helpdeskDomain:1', data: {} });
    const [row] = await eventually(async () => {
      const rows = await context.platform.dataSource.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.webhookEndpointID]);
      expect(rows[0].enabled).toBe(false);
      return rows;
    });
    expect(row.disabled_reason).toBe(`20 deliveries pending (WEBHOOK_MAX_PENDING_PER_ENDPOINT): event ${eventID} (helpdeskDomain.added) and later ones were not queued`);
    const [{ count }] = await context.platform.dataSource.query('SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.webhookEndpointID]);
    expect(count).toBe(20);
  });

  it('counts attempts by outcome, and shows the pending deliveries and how long the oldest due one waits', async () => {
    const metricsUrl = await context.platform.apps['services-api']!.get(MetricsListener).listen(0, '127.0.0.1');
    const metrics = await scrape(metricsUrl);
    // Earlier tests: successes, failed attempts retried, deliveries failed for good.
    for (const outcome of ['succeeded', 'retrying', 'failed']) expect(metrics.value('platform_webhook_delivery_attempts_total', { outcome })).toBeGreaterThan(0);
    // At least the twenty held by the endpoint disabled at the pending bound.
    expect(metrics.value('platform_webhook_deliveries_pending')).toBeGreaterThanOrEqual(20);
    expect(metrics.value('platform_webhook_deliveries_oldest_due_age_seconds')).toBeGreaterThanOrEqual(0);
    // No job queue carries deliveries (the engine claims their rows), so none is measured for them.
    expect(metrics.value('platform_job_queue_depth', { queue: 'webhook-delivery' })).toBeUndefined();
  });

  describe('the delivery log', () => {
    let webhookEndpointID: string;
    let deliveryIDs: string[];

    beforeAll(async () => {
      ({ webhookEndpointID } = await endpointAt(nextPath()));
      deliveryIDs = [];
      for (let index = 0; index < 3; index += 1) deliveryIDs.unshift((await sendTestEvent(webhookEndpointID)).data!.data.webhookDeliveryID);
      await eventually(async () => expect((await list(webhookEndpointID, { status: 'succeeded' })).data!.meta.totalCount).toBe(3));
    });

    it('lists the deliveries newest first, paged with 206 while more pages exist, filtered by status', async () => {
      const all = await list(webhookEndpointID);
      expect(all.response.status).toBe(200);
      expect(all.data!.data.map((delivery) => delivery.webhookDeliveryID)).toEqual(deliveryIDs);
      expect(all.data!.data[0]).toEqual({
        webhookDeliveryID: deliveryIDs[0],
        eventID: expect.any(String),
        eventType: 'webhook.test',
        status: 'succeeded',
        attemptCount: 1,
        lastStatusCode: 200,
        nextAttemptAt: null,
        createdAt: expect.any(String),
        completedAt: expect.any(String),
      });
      const first = await list(webhookEndpointID, { perPage: '2' });
      expect(first.response.status).toBe(206);
      expect(first.data!.meta).toEqual({ count: 2, currentPage: 1, hasMore: true, perPage: 2, totalCount: 3, totalPages: 2 });
      const second = await list(webhookEndpointID, { perPage: '2', page: '2' });
      expect(second.response.status).toBe(200);
      expect([...first.data!.data, ...second.data!.data].map((delivery) => delivery.webhookDeliveryID)).toEqual(deliveryIDs);
      expect((await list(webhookEndpointID, { status: 'failed' })).data!.meta.totalCount).toBe(0);
    });

    it('is 404 1960 for an endpoint the tenant does not have, 404 1966 for an unknown delivery', async () => {
      const otherTenantEndpoint = await endpointAt(nextPath(), { tenantID: context.otherTenantID });
      for (const unknown of [await list(UNKNOWN_ID), await list(otherTenantEndpoint.webhookEndpointID), await sendTestEvent(UNKNOWN_ID)]) {
        expect(unknown.response.status).toBe(404);
        expect(singleError(unknown.error)).toMatchObject({ error_code: 1960, error: 'WebhookEndpointNotFoundError', message: 'Webhook endpoint not found.' });
      }
      for (const unknown of [await read(webhookEndpointID, UNKNOWN_ID), await retry(webhookEndpointID, UNKNOWN_ID)]) {
        expect(unknown.response.status).toBe(404);
        expect(singleError(unknown.error)).toMatchObject({ error_code: 1966, error: 'WebhookDeliveryNotFoundError', message: 'Webhook delivery not found.' });
      }
    });

    /** The endpoint's deliveries and their attempts as stored: a refused retry or test event adds or changes none. */
    const storedDeliveries = async () => ({
      deliveries: await context.platform.dataSource.query('SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id', [webhookEndpointID]),
      attempts: await context.platform.dataSource.query(
        'SELECT a.* FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 ORDER BY a.id',
        [webhookEndpointID],
      ),
    });
    const DELIVERIES = '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/deliveries';
    const operations = [
      { method: 'GET', path: DELIVERIES },
      { method: 'GET', path: `${DELIVERIES}/{webhookDeliveryID}` },
      { method: 'POST', path: `${DELIVERIES}/{webhookDeliveryID}/retries` },
      { method: 'POST', path: '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/test-events' },
    ] as const;
    for (const operation of operations) {
      describeStandardRefusals({
        ...operation,
        client: api,
        tenantID: () => context.tenantID,
        pathParams: () => ({ webhookEndpointID, webhookDeliveryID: deliveryIDs[0] }),
        valid: () => context.owner.authorization,
        outsider: () => context.otherOwner.authorization,
        wrongRole: () => context.member.authorization,
        written: storedDeliveries,
      });
    }

    it('is 400 1002 for a status it does not know', async () => {
      const malformed = await list(webhookEndpointID, { status: 'lost' });
      expect(malformed.response.status).toBe(400);
      expect(singleError(malformed.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'status', received: 'lost' }] });
    });

    it('answers a repeated test event with the same Idempotency-Key with the first answer, sending once', async () => {
      const key = '9b2f7c1e-6a4d-4e8b-9c3f-2d1e0a9b8c7d';
      const first = await sendTestEvent(webhookEndpointID, context.owner.authorization, { 'idempotency-key': key });
      const again = await sendTestEvent(webhookEndpointID, context.owner.authorization, { 'idempotency-key': key });
      expect(again.response.status).toBe(202);
      expect(again.data!.data.webhookDeliveryID).toBe(first.data!.data.webhookDeliveryID);
      expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    });

    it('deletes deliveries and their attempts once older than WEBHOOK_DELIVERY_RETENTION_DAYS', async () => {
      const services = context.platform.apps['services-api']!;
      const retention = services.get(WebhookDeliveryRetention);
      expect((await retention.sweep()).deliveries).toBe(0);
      vi.spyOn(services.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + 31 * 86_400_000));
      try {
        expect((await retention.sweep()).deliveries).toBeGreaterThan(3);
      } finally {
        vi.restoreAllMocks();
      }
      expect((await list(webhookEndpointID)).data!.meta.totalCount).toBe(0);
      const [{ attempts }] = await context.platform.dataSource.query('SELECT count(*)::int AS attempts FROM webhook_delivery_attempts');
      expect(attempts).toBe(0);
    });
  });
});
