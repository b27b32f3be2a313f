import { Injectable } from '@nestjs/common';
import { grantTenantScope, Principal, RequestCharges, TenantAccessService, TenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { HelpdeskAccessRepository, TenantHelpdeskState } from './helpdesk-access.repository';
import { HelpdeskPlugin } from './helpdesk-plugin';

/** What an operation asks of the caller beyond having business with the tenant. */
export interface HelpdeskRequirement {
  /**
   * Among operators, only the tenant's owners pass (403 1004 for a member).
   * The helpdesk plugin and its connection keep their access: they act for
   * the tenant that installed the plugin, which an owner did.
   */
  operatorMustBeOwner?: boolean;
}

/**
 * Access to a tenant's help center, after validation (steps 4-5 of the check order in
 * docs/http-conventions.md; docs/helpdesk-domains.md):
 *
 * 1. 403 1004 when the credential has no business with this tenant: an
 *    operator who is not a member, a plugin other than the helpdesk plugin, a
 *    connection of another plugin or of another tenant, or a tenant that does
 *    not exist (these operations list no 1062);
 * 2. then 422 1000 when the tenant has no live connection of the helpdesk
 *    plugin (for the helpdesk plugin itself this is the "plugin not installed"
 *    case, which the API answers 1000 rather than 403).
 *
 * Who you are comes before the tenant's state, so a stranger never learns
 * whether a tenant has the helpdesk connected. Once both pass, the answer is
 * the `TenantScope` the domains repository requires.
 */
@Injectable()
export class HelpdeskAccess {
  constructor(
    private readonly repository: HelpdeskAccessRepository,
    private readonly tenantAccess: TenantAccessService,
    private readonly helpdeskPlugin: HelpdeskPlugin,
    private readonly quotas: RequestCharges,
  ) {}

  async require(principal: Principal, tenantID: string, requirement: HelpdeskRequirement = {}): Promise<TenantScope> {
    const pluginID = await this.requireCredential(principal, tenantID, requirement);
    return this.granted(tenantID, await this.repository.tenantHelpdeskState(tenantID, pluginID));
  }

  /** Step 1: who the caller is; answers the helpdesk plugin's id for the tenant's helpdesk state. */
  private async requireCredential(principal: Principal, tenantID: string, requirement: HelpdeskRequirement = {}): Promise<string | undefined> {
    const pluginID = await this.helpdeskPlugin.id();
    if (principal.kind === 'plugin') {
      if (principal.pluginID !== pluginID) throw new AppException('Forbidden');
    } else {
      if (principal.kind === 'pluginConnection' && principal.pluginID !== pluginID) throw new AppException('Forbidden');
      // Operator member of the tenant, or the connection's own tenant; an unknown tenant is 403.
      const ownerOnly = principal.kind === 'operator' && requirement.operatorMustBeOwner === true;
      await this.tenantAccess.check(principal, tenantID, { ownerOnly });
    }
    return pluginID;
  }

  /** Step 2: the tenant exists and has the helpdesk plugin connected; then the request is charged to the tenant's budget (only admitted callers spend it). */
  private async granted(tenantID: string, state: TenantHelpdeskState): Promise<TenantScope> {
    if (!state.exists) throw new AppException('Forbidden');
    if (!state.connected) throw new AppException('TenantNotConnected');
    await this.quotas.chargeAdmittedTenant(tenantID);
    return grantTenantScope(tenantID);
  }
}
