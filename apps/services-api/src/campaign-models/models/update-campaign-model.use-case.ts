import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { CampaignModelDto } from './campaign-model.dto';
import { CampaignModelsRepository } from './campaign-models.repository';

export interface UpdateCampaignModelCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  campaignModelID: string;
  meta?: Record<string, unknown>;
  tags?: string[];
}

/**
 * Operation 3: only the model's metadata and tags change (each when given),
 * stamped with who and when; the template is not resubmitted. 404 1053 when
 * absent or deleted. The update and its audit record commit together.
 */
@Injectable()
export class UpdateCampaignModelUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly models: CampaignModelsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: UpdateCampaignModelCommand): Promise<CampaignModelDto> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const changed = [...(command.meta === undefined ? [] : ['campaignModelMeta']), ...(command.tags === undefined ? [] : ['campaignModelTags'])];
    const updated = await this.models.transaction(async (runner) => {
      const row = await this.models.updateMetaAndTags(scope, command.campaignModelID, { meta: command.meta, tags: command.tags }, command.principal.operatorID, runner);
      if (row) await this.audit.record(runner, scope, { action: 'campaignModel.updated', targetID: row.campaignModelID, summary: { changed } });
      return row;
    });
    if (!updated) throw new AppException('CampaignModelNotFound');
    return updated;
  }
}
