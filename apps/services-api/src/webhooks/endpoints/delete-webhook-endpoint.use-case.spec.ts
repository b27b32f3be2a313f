import { AppException } from '@platform/errors';
import { FakeTenantAccess, RecordingAuditTrail } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { DeleteWebhookEndpointUseCase } from './delete-webhook-endpoint.use-case';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';

async function setUp() {
  const access = new FakeTenantAccess();
  const table = new InMemoryWebhookEndpoints();
  const audit = new RecordingAuditTrail();
  const [endpoint] = await seededEndpoints(table, ['https://hooks.example.com/a?token=abc']);
  const useCase = new DeleteWebhookEndpointUseCase(access.asAccess(), table.asRepository(), audit.asTrail());
  return { access, table, audit, endpoint, remove: (webhookEndpointID: string) => useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID }) };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('DeleteWebhookEndpointUseCase', () => {
  it("deletes the endpoint and records webhookEndpoint.deleted in the same transaction, with only the URL's origin", async () => {
    const { remove, table, audit, endpoint } = await setUp();
    await remove(endpoint.webhookEndpointID);
    expect(table.rows).toEqual([]);
    expect(audit.records).toEqual([
      { runner: table.runner, tenantID: TENANT_ID, record: { action: 'webhookEndpoint.deleted', targetID: endpoint.webhookEndpointID, summary: { urlOrigin: 'https://hooks.example.com' } } },
    ]);
  });

  it('answers 404 1960 for an endpoint absent from the tenant, and records nothing', async () => {
    const { remove, audit } = await setUp();
    await expect(remove('00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
    expect(audit.records).toEqual([]);
  });

  it('checks the owners-only access before deleting', async () => {
    const { remove, access, table, endpoint } = await setUp();
    access.refusal = 'Forbidden';
    await expect(remove(endpoint.webhookEndpointID).catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(table.writes).toEqual([]);
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
  });
});
