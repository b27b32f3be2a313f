import { AccessRequirement, Principal, TenantAccessService, trustedTenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { fake } from '@platform/testing';

/**
 * The tenant access check for an operator who is a member of every tenant,
 * and its owner when `owner` (a member's owner-only check is 403 1004); the
 * operators of `outsiders` are members of none (403 1004). Records the
 * requirements it was asked.
 */
export function memberAccess(options: { owner: boolean; outsiders?: readonly string[] }): { access: TenantAccessService; required: (AccessRequirement | undefined)[] } {
  const required: (AccessRequirement | undefined)[] = [];
  const check = async (principal: Principal, _tenantID: string, requirement?: AccessRequirement): Promise<void> => {
    required.push(requirement);
    if (principal.kind === 'operator' && options.outsiders?.includes(principal.operatorID)) throw new AppException('Forbidden');
    if (requirement?.ownerOnly && !options.owner) throw new AppException('Forbidden');
  };
  return {
    required,
    access: fake<TenantAccessService>({
      check,
      require: async (principal: Principal, tenantID: string, requirement?: AccessRequirement) => {
        await check(principal, tenantID, requirement);
        return trustedTenantScope(tenantID);
      },
    }),
  };
}
