import type { AreaSeeder } from './area-seeder';
import { seedCampaigns } from './campaigns';
import { seedConversations } from './conversations';
import { seedHelpdesk } from './helpdesk';
import { seedProcessingTraces } from './processing-traces';

export type { AreaFixtures, AreaSeedContext, AreaSeeder, BaseFixture } from './area-seeder';

/** Area seeders, run in order after the base fixture. */
export const AREA_SEEDERS: AreaSeeder[] = [seedCampaigns, seedConversations, seedHelpdesk, seedProcessingTraces];
