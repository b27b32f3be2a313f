import { BenchContext } from '../context';
import { helpdeskRefresh } from './helpdesk-refresh';
import { pluginConnections } from './plugin-connections';
import { emailVerification } from './email-verification';
import { conversations } from './conversations';
import { processingTraces } from './processing-traces';
import { tenantsList } from './tenants-list';

/** Every benchmark scenario, by the name `npm run bench -- <name>` selects it with. */
export const SCENARIOS: Record<string, (context: BenchContext) => Promise<void>> = {
  'tenants-list': tenantsList,
  'plugin-connections': pluginConnections,
  'helpdesk-refresh': helpdeskRefresh,
  'email-verification': emailVerification,
  conversations,
  'processing-traces': processingTraces,
};
