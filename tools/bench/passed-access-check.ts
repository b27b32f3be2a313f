import { TenantAccessService, trustedTenantScope } from '@platform/auth';

/**
 * The access check as if passed, for the bare runs that measure an
 * operation's SQL in this process: the HTTP runs of the same scenario go
 * through the real check.
 */
export const passedAccessCheck = {
  require: async (_principal: unknown, tenantID: string) => trustedTenantScope(tenantID),
} as unknown as TenantAccessService;
