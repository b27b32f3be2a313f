import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder, WebhookFixtures } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';

/**
 * The delivery log's SQL against PostgreSQL: camelCase rows, the tenant's
 * scope on every read and write, the page order and the status filter.
 */
describe('WebhookDeliveryLogRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let log: WebhookDeliveryLogRepository;
  let tenantID: string;
  let otherTenantID: string;
  let endpointID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    log = new WebhookDeliveryLogRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    const webhooks = new WebhookFixtures(dataSource, (_endpointID, secret) => secret);
    endpointID = (await webhooks.endpoint(tenantID, { url: 'https://hooks.example.com/log' })).webhookEndpointID;
  });
  afterAll(() => close?.());

  const testDelivery = () => log.insertTestDelivery(trustedTenantScope(tenantID), endpointID, randomUUID(), { type: 'webhook.test' }, null);

  it('makes a test delivery, due now, and answers it as a camelCase row', async () => {
    const eventID = randomUUID();
    const created = await log.insertTestDelivery(trustedTenantScope(tenantID), endpointID, eventID, { type: 'webhook.test' }, { 'x-request-id': 'req-1' });
    expect(created).toEqual({
      webhookDeliveryID: expect.any(String),
      eventID,
      eventType: 'webhook.test',
      status: 'pending',
      attemptCount: 0,
      lastStatusCode: null,
      nextAttemptAt: expect.any(Date),
      createdAt: expect.any(Date),
      completedAt: null,
    });
  });

  it("finds, locks, re-sends and lists a delivery in its tenant only, never in another tenant's scope", async () => {
    const delivery = await testDelivery();
    const other = trustedTenantScope(otherTenantID);
    expect(await log.byID(other, endpointID, delivery.webhookDeliveryID)).toBeUndefined();
    expect(await log.count(other, endpointID, undefined)).toBe(0);
    expect(await log.page(other, endpointID, undefined, { limit: 10, offset: 0 })).toEqual([]);
    expect(await log.transaction((runner) => log.byIDForUpdate(runner, other, endpointID, delivery.webhookDeliveryID))).toBeUndefined();
    expect(await log.transaction((runner) => log.resend(runner, other, delivery.webhookDeliveryID))).toBeUndefined();
    expect(await log.byID(trustedTenantScope(tenantID), endpointID, delivery.webhookDeliveryID)).toEqual(delivery);
  });

  it('reads attempts oldest first, in the tenant only', async () => {
    const delivery = await testDelivery();
    await dataSource.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, duration_ms, status_code, error, succeeded)
       VALUES ($1, '2026-11-28T12:00:02Z', 8, 200, NULL, true), ($1, '2026-11-28T12:00:01Z', 1000, NULL, 'no answer within 1000 ms', false)`,
      [delivery.webhookDeliveryID],
    );
    expect(await log.attempts(trustedTenantScope(tenantID), delivery.webhookDeliveryID)).toEqual([
      { attemptedAt: new Date('2026-11-28T12:00:01Z'), statusCode: null, durationMs: 1000, error: 'no answer within 1000 ms', succeeded: false },
      { attemptedAt: new Date('2026-11-28T12:00:02Z'), statusCode: 200, durationMs: 8, error: null, succeeded: true },
    ]);
    expect(await log.attempts(trustedTenantScope(otherTenantID), delivery.webhookDeliveryID)).toEqual([]);
  });

  it('pages newest first and filters by status; a re-send makes a failed delivery pending and due again', async () => {
    const failed = await testDelivery();
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'failed', completed_at = clock_timestamp(), next_attempt_at = NULL WHERE id = $1`, [failed.webhookDeliveryID]);
    const newest = await testDelivery();
    const scope = trustedTenantScope(tenantID);
    const page = await log.page(scope, endpointID, undefined, { limit: 2, offset: 0 });
    expect(page.map((delivery) => delivery.webhookDeliveryID)).toEqual([newest.webhookDeliveryID, failed.webhookDeliveryID]);
    expect((await log.page(scope, endpointID, 'failed', { limit: 10, offset: 0 })).map((delivery) => delivery.webhookDeliveryID)).toEqual([failed.webhookDeliveryID]);
    expect(await log.count(scope, endpointID, 'failed')).toBe(1);
    const resent = await log.transaction((runner) => log.resend(runner, scope, failed.webhookDeliveryID));
    expect(resent).toMatchObject({ status: 'pending', completedAt: null, nextAttemptAt: expect.any(Date) });
    expect(await log.count(scope, endpointID, 'failed')).toBe(0);
  });
});
