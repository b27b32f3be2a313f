import { AppException } from '@platform/errors';
import { FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ListWebhookEndpointsUseCase } from './list-webhook-endpoints.use-case';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';

async function setUp() {
  const access = new FakeTenantAccess();
  const table = new InMemoryWebhookEndpoints();
  const endpoints = await seededEndpoints(table, ['https://hooks.example.com/a', 'https://hooks.example.com/b']);
  const useCase = new ListWebhookEndpointsUseCase(access.asAccess(), table.asRepository());
  return { access, endpoints, list: (page: number, perPage: number) => useCase.execute({ principal: OWNER, tenantID: TENANT_ID, page: { page, perPage } }) };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('ListWebhookEndpointsUseCase', () => {
  it('lists endpoints without their secrets', async () => {
    const { list, endpoints } = await setUp();
    const listed = await list(1, 20);
    expect(listed.data).toEqual(endpoints.map(({ secret: _secret, ...shown }) => shown));
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('pages as every list does, and answers an empty page past the end', async () => {
    const { list, endpoints } = await setUp();
    const page = await list(2, 1);
    expect(page.data.map((endpoint) => endpoint.webhookEndpointID)).toEqual([endpoints[1].webhookEndpointID]);
    expect(page.meta).toEqual({ count: 1, currentPage: 2, hasMore: false, perPage: 1, totalCount: 2, totalPages: 2 });
    expect((await list(5, 1)).data).toEqual([]);
  });

  it('checks the owners-only access (404 1062 for an unknown tenant)', async () => {
    const { list, access } = await setUp();
    access.refusal = 'TenantNotFound';
    await expect(list(1, 20).catch(codeOf)).resolves.toEqual({ status: 404, code: 1062 });
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
  });
});
