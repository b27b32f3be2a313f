import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { DataSource } from 'typeorm';
import { HelpdeskPlugin } from './helpdesk-plugin';

/**
 * Access to a tenant's help center, after validation (DESIGN.md section 4,
 * steps 4-5; docs/helpdesk-domains.md):
 *
 * 1. 403 1004 when the credential has no business with this tenant: an
 *    operator who is not a member, a plugin other than the helpdesk plugin, a
 *    connection of another plugin or of another tenant, or a tenant that does
 *    not exist (SPEC.md lists no 1062 for these operations);
 * 2. then 422 1000 when the tenant has no live connection of the helpdesk
 *    plugin (for the helpdesk plugin itself this is the "plugin not installed"
 *    case, which SPEC.md answers 1000 rather than 403).
 *
 * Who you are comes before the tenant's state, so a stranger never learns
 * whether a tenant has the helpdesk connected.
 */
@Injectable()
export class HelpdeskAccess {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenantAccess: TenantAccessService,
    private readonly helpdeskPlugin: HelpdeskPlugin,
  ) {}

  async require(principal: Principal, tenantID: string): Promise<void> {
    const pluginID = await this.helpdeskPlugin.id();
    if (principal.kind === 'plugin') {
      if (principal.pluginID !== pluginID) throw new AppException('Forbidden');
    } else {
      if (principal.kind === 'pluginConnection' && principal.pluginID !== pluginID) throw new AppException('Forbidden');
      // Operator member of the tenant, or the connection's own tenant; an unknown tenant is 403.
      await this.tenantAccess.require(principal, tenantID);
    }
    const [tenant] = await this.standingOf(tenantID, pluginID);
    if (!tenant.exists) throw new AppException('Forbidden');
    if (!tenant.connected) throw new AppException('TenantNotConnected');
  }

  /**
   * Read from PostgreSQL on every request (one indexed query): removing the
   * helpdesk connection is felt at once, on every replica.
   */
  private standingOf(tenantID: string, pluginID: string | undefined): Promise<{ exists: boolean; connected: boolean }[]> {
    return this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1) AS exists,
              EXISTS (SELECT 1 FROM plugin_connections
                       WHERE tenant_id = $1 AND plugin_id = $2 AND status = 'live') AS connected`,
      [tenantID, pluginID ?? null],
    );
  }
}
