import { BenchContext } from '../context';
import { campaignModelsList } from './campaign-models-list';
import { operatorConsole } from './console';
import { conversations } from './conversations';
import { conversationsMotion } from './conversations-motion';
import { cpuPerRequest } from './cpu-per-request';
import { emailVerification } from './email-verification';
import { helpdeskRefresh } from './helpdesk-refresh';
import { memory } from './memory';
import { messagesAtSize } from './messages-at-size';
import { partitioning } from './partitioning';
import { pluginConnections } from './plugin-connections';
import { processingTraces } from './processing-traces';
import { queueAtSize } from './queue-at-size';
import { realtime } from './realtime';
import { routing } from './routing';
import { searchAtSize } from './search-at-size';
import { statementPath } from './statement-path';
import { tenantsList } from './tenants-list';

/** Every benchmark scenario, by the name `npm run bench -- <name>` selects it with. */
export const SCENARIOS: Record<string, (context: BenchContext) => Promise<void>> = {
  'cpu-per-request': cpuPerRequest,
  'tenants-list': tenantsList,
  'plugin-connections': pluginConnections,
  'campaign-models-list': campaignModelsList,
  conversations,
  'conversations-motion': conversationsMotion,
  'email-verification': emailVerification,
  'helpdesk-refresh': helpdeskRefresh,
  'processing-traces': processingTraces,
  partitioning,
  memory,
  realtime,
  'search-at-size': searchAtSize,
  'queue-at-size': queueAtSize,
  'messages-at-size': messagesAtSize,
  routing,
  console: operatorConsole,
  'statement-path': statementPath,
};
