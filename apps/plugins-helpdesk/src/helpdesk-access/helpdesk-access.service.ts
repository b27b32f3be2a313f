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
    await this.requireAndRead(principal, tenantID);
  }

  /**
   * As require, and reads `row` (a SELECT where `$1` is the tenant id and its
   * own parameters are numbered from `$3`) in the same statement as the
   * tenant's standing: one database round trip instead of two, both read in
   * one snapshot. Its first row is returned only once access is granted, so
   * the checks keep their order (403 1004, 422 1000, then whatever the caller
   * answers for a missing row).
   */
  async requireAndRead<Row extends object>(principal: Principal, tenantID: string, row?: RowRead): Promise<Row | undefined> {
    const pluginID = await this.helpdeskPlugin.id();
    if (principal.kind === 'plugin') {
      if (principal.pluginID !== pluginID) throw new AppException('Forbidden');
    } else {
      if (principal.kind === 'pluginConnection' && principal.pluginID !== pluginID) throw new AppException('Forbidden');
      // Operator member of the tenant, or the connection's own tenant; an unknown tenant is 403.
      await this.tenantAccess.require(principal, tenantID);
    }
    const [{ exists, connected, found, ...read }] = await this.standingOf(tenantID, pluginID, row);
    if (!exists) throw new AppException('Forbidden');
    if (!connected) throw new AppException('TenantNotConnected');
    return found ? (read as Row) : undefined;
  }

  /**
   * Read from PostgreSQL on every request (one indexed query): removing the
   * helpdesk connection is felt at once, on every replica.
   */
  private standingOf(tenantID: string, pluginID: string | undefined, row?: RowRead): Promise<({ exists: boolean; connected: boolean; found: boolean | null } & object)[]> {
    const standing = `SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1) AS exists,
              EXISTS (SELECT 1 FROM plugin_connections
                       WHERE tenant_id = $1 AND plugin_id = $2 AND status = 'live') AS connected`;
    if (!row) return this.dataSource.query(standing, [tenantID, pluginID ?? null]);
    return this.dataSource.query(
      `SELECT standing.exists, standing.connected, read.*
         FROM (${standing}) standing
         LEFT JOIN LATERAL (SELECT true AS found, wanted.* FROM (${row.select}) wanted LIMIT 1) read ON true`,
      [tenantID, pluginID ?? null, ...row.parameters],
    );
  }
}

/** A SELECT to run with the standing (see HelpdeskAccess.requireAndRead). */
export interface RowRead {
  select: string;
  parameters: unknown[];
}
