import { ProcessStatus } from './trace-provider/trace-protocol';

/**
 * Several processings combined into one status: `running` while any still
 * runs, else `failed` if any failed, else `stopped` if any was stopped, else
 * `succeeded` (docs/processing-traces.md, combined status).
 */
const PRECEDENCE: readonly ProcessStatus[] = ['running', 'failed', 'stopped', 'succeeded'];

export function combineProcessStatuses(statuses: readonly ProcessStatus[]): ProcessStatus | undefined {
  return PRECEDENCE.find((status) => statuses.includes(status));
}
