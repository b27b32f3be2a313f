import { BenchContext } from '../context';
import { campaignModelsList } from './campaign-models-list';
import { tenantsList } from './tenants-list';

/** Every benchmark scenario, by the name `npm run bench -- <name>` selects it with. */
export const SCENARIOS: Record<string, (context: BenchContext) => Promise<void>> = {
  'tenants-list': tenantsList,
  'campaign-models-list': campaignModelsList,
};
