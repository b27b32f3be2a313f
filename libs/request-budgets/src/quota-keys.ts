import type { Principal } from '@platform/auth';
import { tenantTag } from '@platform/redis';

/** The key of a request budget's counter: `quota:v1:<app>:<principal|tenant>:<subject>`. */
export function quotaCounterKey(app: string, policyName: string, subject: string): string {
  return `quota:v1:${app}:${policyName}:${subject}`;
}

/**
 * The subjects in the keys of the request budgets' counters.
 *
 * A plugin connection's request charges its own budget and its tenant's in
 * one script, so both counters carry the tenant's hash tag and share a
 * Redis Cluster slot. An operator or a plugin is charged alone: its counter
 * needs no tag.
 */
export function principalSubjectOf(principal: Principal): string {
  if (principal.kind === 'operator') return `operator:${principal.operatorID}`;
  if (principal.kind === 'plugin') return `plugin:${principal.pluginID}`;
  return `pluginConnection:${principal.pluginConnectionID}:${tenantTag(principal.tenantID)}`;
}

/** `tenantID` canonical (lower-case), so that every spelling of the path charges one counter. */
export function tenantSubjectOf(tenantID: string): string {
  return tenantTag(tenantID);
}
