import { Foundation1763700000000 } from './1763700000000-foundation';
import { CampaignModels1763800000000 } from './1763800000000-campaign-models';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000, CampaignModels1763800000000];
