import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { campaignModelDto } from '../../../test/doubles/campaign-models.fakes';
import type { CampaignModelsListRepository, ListRequest } from './campaign-models-list.repository';
import { ListCampaignModelsCommand, ListCampaignModelsUseCase } from './list-campaign-models.use-case';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

/** The list repository over `total` models of the tenant, answering as many rows as the page holds. */
function setUp(total: number, options: { refuseAccess?: boolean } = {}) {
  const requests: { scope: TenantScope; request: ListRequest }[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const lists = fake<CampaignModelsListRepository>({
    list: async (scope: TenantScope, request: ListRequest) => {
      requests.push({ scope, request });
      const onPage = Math.max(0, Math.min(request.perPage, total - (request.page - 1) * request.perPage));
      const data = Array.from({ length: onPage }, (_, index) => campaignModelDto({ campaignModelID: `model-${index}`, tenantID }));
      return { totalCount: total, data };
    },
  });
  const useCase = new ListCampaignModelsUseCase(access, lists);
  const list = (command: Partial<ListCampaignModelsCommand> = {}) => useCase.execute({ principal, tenantID, page: { page: 1, perPage: 20 }, ...command });
  return { requests, list };
}

describe('ListCampaignModelsUseCase (operation 4)', () => {
  it('lists newest first by default, within the checked scope, and says more pages exist', async () => {
    const { list, requests } = setUp(45);
    const { data, meta } = await list();
    expect(data).toHaveLength(20);
    expect(meta).toMatchObject({ count: 20, currentPage: 1, perPage: 20, hasMore: true });
    expect(requests).toEqual([
      { scope: trustedTenantScope(tenantID), request: { page: 1, perPage: 20, sortField: 'createdAt', descending: true, search: undefined, filters: undefined } },
    ]);
  });

  it('passes the sort, the search and the parsed filters on; the last page has no more', async () => {
    const { list, requests } = setUp(45);
    const { meta } = await list({
      page: { page: 3, perPage: 20 },
      sortField: 'campaignModelID',
      sortDirection: '1',
      search: 'order',
      filters: JSON.stringify({ campaignModelStatus: ['refused'] }),
    });
    expect(meta).toMatchObject({ count: 5, currentPage: 3, hasMore: false });
    expect(requests[0].request).toMatchObject({ sortField: 'campaignModelID', descending: false, search: 'order', filters: { statuses: ['refused'] } });
  });

  it('checks access before listing', async () => {
    const { list, requests } = setUp(1, { refuseAccess: true });
    await expect(list()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(requests).toEqual([]);
  });
});
