import { AppException } from '@platform/errors';
import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { campaignModelDto } from '../../../test/doubles/campaign-models.fakes';
import type { CampaignModelsRepository } from './campaign-models.repository';
import { UpdateCampaignModelUseCase } from './update-campaign-model.use-case';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };
const modelID = '3b241101-e2bb-4255-8caf-4136c566a962';

interface Update {
  scope: TenantScope;
  id: string;
  changes: { meta?: Record<string, unknown>; tags?: string[] };
  operatorID: string;
}

function setUp(options: { refuseAccess?: boolean } = {}) {
  const updates: Update[] = [];
  const transaction = { query: async () => [] };
  const model = campaignModelDto({ campaignModelID: modelID, tenantID, campaignModelMeta: { a: 1 }, campaignModelTags: ['x'] });
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const models = fake<CampaignModelsRepository>({
    transaction: transactionOn(transaction),
    updateMetaAndTags: async (scope: TenantScope, id: string, changes: Update['changes'], operatorID: string, runner: unknown) => {
      expect(runner).toBe(transaction);
      updates.push({ scope, id, changes, operatorID });
      if (id !== modelID) return undefined;
      return { ...model, campaignModelMeta: changes.meta ?? model.campaignModelMeta, campaignModelTags: changes.tags ?? model.campaignModelTags };
    },
  });
  const audit = new RecordingAuditTrail();
  const useCase = new UpdateCampaignModelUseCase(access, models, audit.asTrail());
  return { updates, recorded: audit.records, transaction, update: (id: string, changes: Update['changes']) => useCase.execute({ principal, tenantID, campaignModelID: id, ...changes }) };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('UpdateCampaignModelUseCase (operation 3)', () => {
  it('changes only what is given, stamped with the operator, within the checked scope', async () => {
    const { update, updates } = setUp();
    const updated = await update(modelID, { tags: ['y'] });
    expect(updated).toMatchObject({ campaignModelMeta: { a: 1 }, campaignModelTags: ['y'] });
    expect(updates).toEqual([{ scope: trustedTenantScope(tenantID), id: modelID, changes: { meta: undefined, tags: ['y'] }, operatorID: principal.operatorID }]);
  });

  it('records campaignModel.updated, naming what changed, in the transaction of the update', async () => {
    const { update, recorded, transaction } = setUp();
    await update(modelID, { tags: ['y'] });
    expect(recorded).toEqual([
      { runner: transaction, tenantID, record: { action: 'campaignModel.updated', targetID: modelID, summary: { changed: ['campaignModelTags'] } } },
    ]);
  });

  it('records nothing for a model absent from the tenant', async () => {
    const { update, recorded } = setUp();
    await update('00000000-0000-4000-8000-000000000000', { meta: {} }).catch(() => undefined);
    expect(recorded).toEqual([]);
  });

  it('answers 404 1058 for a model absent from the tenant', async () => {
    const { update } = setUp();
    await expect(update('00000000-0000-4000-8000-000000000000', { meta: {} }).catch(codeOf)).resolves.toEqual({ status: 404, code: 1058 });
  });

  it('checks access before writing', async () => {
    const { update, updates } = setUp({ refuseAccess: true });
    await expect(update(modelID, { meta: {} }).catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(updates).toEqual([]);
  });
});
