import { AppException } from '@platform/errors';
import { fake, FakeClock, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryEngine } from '../delivery-engine/webhook-delivery-engine';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';
import { SendWebhookTestEventUseCase } from './send-webhook-test-event.use-case';
import type { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

async function setUp(options: { endpointEnabled?: boolean } = {}) {
  const access = new FakeTenantAccess();
  const endpoints = new InMemoryWebhookEndpoints();
  const [endpoint] = await seededEndpoints(endpoints, ['https://hooks.example.com/a']);
  if (options.endpointEnabled === false) endpoints.rows[0]!.enabled = false;
  const inserted: { tenantID: string; endpointID: string; payload: object }[] = [];
  const deliveries = fake<WebhookDeliveryLogRepository>({
    insertTestDelivery: async (scope, endpointID, eventID, payload) => {
      inserted.push({ tenantID: scope.tenantID, endpointID, payload });
      const createdAt = new Date('2026-03-02T12:00:00.000Z');
      return { webhookDeliveryID: '0b1c2d3e-4f50-4a6b-8c7d-8e9f00112233', eventID, eventType: 'webhook.test', status: 'pending', attemptCount: 0, lastStatusCode: null, nextAttemptAt: createdAt, createdAt, completedAt: null };
    },
  });
  let nudges = 0;
  const engine = fake<WebhookDeliveryEngine>({ nudge: () => void (nudges += 1) });
  const claims: string[] = [];
  const useCase = new SendWebhookTestEventUseCase(new WebhookEndpointOfTenant(access.asAccess(), endpoints.asRepository()), deliveries, engine, new FakeClock());
  return {
    access,
    inserted,
    claims,
    nudges: () => nudges,
    send: () =>
      useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID: endpoint.webhookEndpointID, idempotency: { claimKey: async () => void claims.push('claimed') } }),
    endpointID: endpoint.webhookEndpointID,
  };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('SendWebhookTestEventUseCase', () => {
  it('makes a webhook.test delivery to that endpoint, due now, after claiming the key, and nudges the engine', async () => {
    const { send, inserted, claims, nudges, endpointID } = await setUp();
    await expect(send()).resolves.toMatchObject({ eventType: 'webhook.test', status: 'pending', attemptCount: 0, nextAttemptAt: '2026-03-02T12:00:00.000Z' });
    expect(claims).toEqual(['claimed']);
    expect(inserted).toEqual([
      {
        tenantID: TENANT_ID,
        endpointID,
        payload: { type: 'webhook.test', timestamp: '2026-03-02T12:00:00.000Z', data: { webhookEndpointID: endpointID, message: 'A test event sent on request.' } },
      },
    ]);
    expect(nudges()).toBe(1);
  });

  it('answers 409 1968 while the endpoint is disabled (its key claimed, so a replay answers the same), and sends nothing', async () => {
    const { send, inserted, claims, nudges } = await setUp({ endpointEnabled: false });
    await expect(send().catch(codeOf)).resolves.toEqual({ status: 409, code: 1968 });
    expect([claims, inserted, nudges()]).toEqual([['claimed'], [], 0]);
  });

  it('checks the owners-only access before claiming the key', async () => {
    const { send, access, claims } = await setUp();
    access.refusal = 'Forbidden';
    await expect(send().catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(claims).toEqual([]);
  });
});
