import { AppException } from '@platform/errors';
import { fake, FakeTenantAccess, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryEngine } from '../delivery-engine/webhook-delivery-engine';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';
import { RetryWebhookDeliveryUseCase } from './retry-webhook-delivery.use-case';
import type { LoggedDelivery, WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

const DELIVERY_ID = '0b1c2d3e-4f50-4a6b-8c7d-8e9f00112233';

async function setUp(status: LoggedDelivery['status'], options: { endpointEnabled?: boolean } = {}) {
  const access = new FakeTenantAccess();
  const endpoints = new InMemoryWebhookEndpoints();
  const [endpoint] = await seededEndpoints(endpoints, ['https://hooks.example.com/a']);
  if (options.endpointEnabled === false) endpoints.rows[0]!.enabled = false;
  const delivery: LoggedDelivery = {
    webhookDeliveryID: DELIVERY_ID,
    eventID: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
    eventType: 'member.removed',
    status,
    attemptCount: 8,
    lastStatusCode: 500,
    nextAttemptAt: null,
    createdAt: new Date('2026-03-02T12:00:00.000Z'),
    completedAt: status === 'pending' ? null : new Date('2026-03-03T15:00:00.000Z'),
  };
  const runner = { query: async () => [] };
  const resent: { tenantID: string; deliveryID: string }[] = [];
  const deliveries = fake<WebhookDeliveryLogRepository>({
    transaction: transactionOn(runner),
    byIDForUpdate: async (_runner, scope, endpointID, deliveryID) =>
      scope.tenantID === TENANT_ID && endpointID === endpoint.webhookEndpointID && deliveryID === DELIVERY_ID ? delivery : undefined,
    resend: async (_runner, scope, deliveryID) => {
      resent.push({ tenantID: scope.tenantID, deliveryID });
      return { ...delivery, status: 'pending', nextAttemptAt: new Date('2026-03-04T09:00:00.000Z'), completedAt: null };
    },
  });
  let nudges = 0;
  const engine = fake<WebhookDeliveryEngine>({ nudge: () => void (nudges += 1) });
  const useCase = new RetryWebhookDeliveryUseCase(new WebhookEndpointOfTenant(access.asAccess(), endpoints.asRepository()), deliveries, engine);
  return {
    access,
    resent,
    nudges: () => nudges,
    retry: (webhookDeliveryID = DELIVERY_ID, webhookEndpointID = endpoint.webhookEndpointID) =>
      useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID, webhookDeliveryID }),
  };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('RetryWebhookDeliveryUseCase', () => {
  it('makes a failed delivery due now in its tenant, nudges the engine and answers it pending', async () => {
    const { retry, resent, nudges } = await setUp('failed');
    await expect(retry()).resolves.toMatchObject({ webhookDeliveryID: DELIVERY_ID, status: 'pending', nextAttemptAt: '2026-03-04T09:00:00.000Z', completedAt: null });
    expect(resent).toEqual([{ tenantID: TENANT_ID, deliveryID: DELIVERY_ID }]);
    expect(nudges()).toBe(1);
  });

  it('answers 409 1967 for a delivery that succeeded, and re-sends nothing', async () => {
    const { retry, resent, nudges } = await setUp('succeeded');
    await expect(retry().catch(codeOf)).resolves.toEqual({ status: 409, code: 1967 });
    expect([resent, nudges()]).toEqual([[], 0]);
  });

  it('answers 409 1968 while the endpoint is disabled, and re-sends nothing', async () => {
    const { retry, resent } = await setUp('failed', { endpointEnabled: false });
    await expect(retry().catch(codeOf)).resolves.toEqual({ status: 409, code: 1968 });
    expect(resent).toEqual([]);
  });

  it('answers 404 1966 for a delivery the endpoint does not have, 404 1960 for an endpoint the tenant does not have', async () => {
    const { retry } = await setUp('failed');
    await expect(retry('00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1966 });
    await expect(retry(DELIVERY_ID, '00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
  });

  it('checks the owners-only access first', async () => {
    const { retry, access, resent } = await setUp('failed');
    access.refusal = 'Forbidden';
    await expect(retry().catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(resent).toEqual([]);
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
  });
});
