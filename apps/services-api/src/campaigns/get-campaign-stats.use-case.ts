import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { CampaignsRepository, CampaignStats } from './campaigns.repository';

export interface GetCampaignStatsCommand {
  principal: OperatorPrincipal;
  tenantID: string;
}

/** Operation 6: the tenant's campaigns counted by status, every status present. */
@Injectable()
export class GetCampaignStatsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly campaigns: CampaignsRepository,
  ) {}

  async execute(command: GetCampaignStatsCommand): Promise<CampaignStats> {
    const scope = await this.access.require(command.principal, command.tenantID);
    return this.campaigns.stats(scope);
  }
}
