import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';

/** Campaigns (SPEC.md operation 6: stats). */
@Module({ controllers: [CampaignsController], providers: [CampaignsRepository] })
export class CampaignsModule {}
