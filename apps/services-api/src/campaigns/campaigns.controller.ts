import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { CAMPAIGN_STATUSES } from '@platform/database';
import { TenantParams } from '@platform/http-common';
import type { CampaignStats } from './campaigns.repository';
import { GetCampaignStatsUseCase } from './get-campaign-stats.use-case';

export class CampaignStatsResponse implements CampaignStats {
  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(CAMPAIGN_STATUSES.map((status) => [status, { type: 'number' }])),
    description: 'Campaigns per status; every status is present',
  })
  byStatus!: Record<string, number>;

  @ApiProperty({ description: 'Sum of byStatus' })
  total!: number;
}

@ApiTags('Campaigns')
@Controller('v1/tenants/:tenantID/campaigns')
export class CampaignsController {
  constructor(private readonly getStats: GetCampaignStatsUseCase) {}

  /** Operation 6. */
  @Get('stats')
  @Auth('operator')
  @ApiOperation({ operationId: 'countCampaignsByStatus', summary: 'Count the tenant\'s campaigns by status' })
  @ApiOkResponse({ type: CampaignStatsResponse })
  async stats(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams): Promise<CampaignStatsResponse> {
    return this.getStats.execute({ principal, tenantID: params.tenantID });
  }
}
