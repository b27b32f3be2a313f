import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { CampaignModelWithSnippetResponse } from './campaign-model.dto';
import { campaignReqSnippetOf } from './campaign-req-snippet';
import { CampaignModelsRepository } from './campaign-models.repository';
import type { Slots } from './template-content';

export interface GetCampaignModelCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  campaignModelID: string;
}

/** Operation 5: one campaign model, with the provider request that sends it; 404 1053 when absent or deleted. */
@Injectable()
export class GetCampaignModelUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly models: CampaignModelsRepository,
  ) {}

  async execute(command: GetCampaignModelCommand): Promise<CampaignModelWithSnippetResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const found = await this.models.findView(scope, command.campaignModelID);
    if (!found) throw new AppException('CampaignModelNotFound');
    const { language, ...campaignModel } = found;
    const campaignReqSnippet = campaignReqSnippetOf({
      name: campaignModel.campaignModelName,
      language,
      slots: campaignModel.campaignModelSlots as unknown as Slots,
    });
    return { campaignModel, campaignReqSnippet };
  }
}
