/** How an inbox's queued sessions find an operator (docs/conversations.md#routing). */
export const ROUTING_POLICIES = ['manual', 'least-loaded', 'round-robin'] as const;
export type RoutingPolicyName = (typeof ROUTING_POLICIES)[number];

/** Open sessions an operator may be assigned at most, tenant-wide, under a routed inbox's policy. */
export const MIN_CAPACITY = 1;
export const MAX_CAPACITY = 1000;
/** An inbox without a stored policy: manual, and this capacity should a policy name none. */
export const DEFAULT_CAPACITY = 5;
/** A requeue limit: one second to one week. */
export const MAX_REQUEUE_OFFLINE_AFTER_SECONDS = 604_800;
/** Operators one policy may name. */
export const MAX_POLICY_OPERATORS = 1000;

export interface RoutingPolicy {
  inboxID: string;
  policy: RoutingPolicyName;
  capacity: number;
  /** The inbox's operators; empty: every member of the tenant. */
  operatorIDs: string[];
  /** An assignee offline this long gives the session back to the queue; null: never. */
  requeueOfflineAfterSeconds: number | null;
}

/** What an inbox without a stored policy follows: nobody is assigned automatically. */
export function defaultPolicyOf(inboxID: string): RoutingPolicy {
  return { inboxID, policy: 'manual', capacity: DEFAULT_CAPACITY, operatorIDs: [], requeueOfflineAfterSeconds: null };
}

/** A policy that assigns automatically (and so also bounds manual assignments by its capacity). */
export function isRouted(policy: Pick<RoutingPolicy, 'policy'>): boolean {
  return policy.policy !== 'manual';
}
