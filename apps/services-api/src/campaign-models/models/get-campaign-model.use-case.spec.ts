import { AppException } from '@platform/errors';
import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { campaignModelDto } from '../../../test/doubles/campaign-models.fakes';
import type { CampaignModelsRepository } from './campaign-models.repository';
import { GetCampaignModelUseCase } from './get-campaign-model.use-case';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };
const modelID = '3b241101-e2bb-4255-8caf-4136c566a962';

/** The model as the API shows it. */
const view = campaignModelDto({
  campaignModelID: modelID,
  tenantID,
  campaignModelName: 'order_update',
  campaignModelSlots: { body: { text: 'Hello {{name}}', variables: [{ key: 'name', fallback: 'there' }] } },
});
/** As the repository reads it: with the template language the snippet needs. */
const stored = { ...view, language: 'en' };

function setUp(options: { refuseAccess?: boolean } = {}) {
  const reads: { scope: TenantScope; id: string }[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const models = fake<CampaignModelsRepository>({
    findView: async (scope: TenantScope, id: string) => {
      reads.push({ scope, id });
      return id === modelID && scope.tenantID === tenantID ? stored : undefined;
    },
  });
  const useCase = new GetCampaignModelUseCase(access, models);
  return { reads, get: (id: string) => useCase.execute({ principal, tenantID: tenantID.toUpperCase(), campaignModelID: id }) };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('GetCampaignModelUseCase (operation 5)', () => {
  it('answers the model without its language, with the provider request that sends it', async () => {
    const { get, reads } = setUp();
    const { campaignModel, campaignReqSnippet } = await get(modelID);
    expect(campaignModel).toEqual(view);
    const snippet = JSON.parse(campaignReqSnippet) as { template: { name: string; language: { code: string } } };
    expect(snippet.template).toMatchObject({ name: 'order_update', language: { code: 'en' } });
    expect(reads).toEqual([{ scope: trustedTenantScope(tenantID), id: modelID }]);
  });

  it('answers 404 1058 for a model absent from the tenant', async () => {
    const { get } = setUp();
    await expect(get('00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1058 });
  });

  it('checks access before reading', async () => {
    const { get, reads } = setUp({ refuseAccess: true });
    await expect(get(modelID).catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(reads).toEqual([]);
  });
});
