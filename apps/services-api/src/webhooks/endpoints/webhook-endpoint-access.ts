import type { AccessRequirement } from '@platform/auth';

/**
 * Every endpoint operation is the tenant's owners' alone (a member gets 403
 * 1004, an unknown tenant 404 1062): an endpoint receives the tenant's
 * events, and its secret proves deliveries, so only who answers for the
 * tenant chooses where they go.
 */
export const OWNERS_ONLY: AccessRequirement = { ownerOnly: true, tenantNotFoundIs404: true };
