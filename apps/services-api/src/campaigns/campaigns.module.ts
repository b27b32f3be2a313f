import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { GetCampaignStatsUseCase } from './get-campaign-stats.use-case';

/** Campaigns (operation 6: stats, docs/campaign-models.md). */
@Module({ controllers: [CampaignsController], providers: [CampaignsRepository, GetCampaignStatsUseCase] })
export class CampaignsModule {}
