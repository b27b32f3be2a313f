import { AppException } from '@platform/errors';
import { FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { GetWebhookEndpointUseCase } from './get-webhook-endpoint.use-case';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('GetWebhookEndpointUseCase', () => {
  it('answers the endpoint without its secret; 404 1960 for one absent from the tenant; owners only', async () => {
    const access = new FakeTenantAccess();
    const table = new InMemoryWebhookEndpoints();
    const [endpoint] = await seededEndpoints(table, ['https://hooks.example.com/a']);
    const useCase = new GetWebhookEndpointUseCase(access.asAccess(), table.asRepository());
    const read = (webhookEndpointID: string) => useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID });

    const { secret: _secret, ...shown } = endpoint;
    await expect(read(endpoint.webhookEndpointID)).resolves.toEqual(shown);
    await expect(read('00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
    expect(access.checks.at(-1)).toEqual({ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } });
    access.refusal = 'Forbidden';
    await expect(read(endpoint.webhookEndpointID).catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
  });
});
