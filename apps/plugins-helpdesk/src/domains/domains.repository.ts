import { Injectable } from '@nestjs/common';
import type { HelpdeskDomainStatus } from '@platform/database';
import { rethrowUniqueViolation } from '@platform/errors';
import { DataSource } from 'typeorm';
import type { RowRead } from '../helpdesk-access/helpdesk-access.service';

/** A domain row, as the use cases need it. */
export interface StoredDomain {
  id: string;
  tenantID: string;
  hostname: string;
  providerID: string | null;
  status: HelpdeskDomainStatus;
  lastCheckedAt: Date | null;
  verifiedAt: Date | null;
}

const COLUMNS = `id, tenant_id AS "tenantID", hostname, provider_id AS "providerID", status,
                 last_checked_at AS "lastCheckedAt", verified_at AS "verifiedAt"`;

/** Help centers and their domains. Every query is scoped by tenant. */
@Injectable()
export class DomainsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The tenant's help center, created on first use (one per tenant, race-free). */
  async ensureHelpCenter(tenantID: string): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO help_centers (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id
       RETURNING id`,
      [tenantID],
    );
    return rows[0].id;
  }

  /** The tenant's domain `hostname`, read with the tenant's standing (HelpdeskAccess.requireAndRead). */
  byHostname(hostname: string): RowRead {
    return { select: `SELECT ${COLUMNS} FROM helpdesk_domains WHERE tenant_id = $1 AND hostname = $3`, parameters: [hostname] };
  }

  async hostnameTaken(hostname: string): Promise<boolean> {
    const rows: { taken: boolean }[] = await this.dataSource.query('SELECT EXISTS (SELECT 1 FROM helpdesk_domains WHERE hostname = $1) AS taken', [
      hostname,
    ]);
    return rows[0].taken;
  }

  /**
   * Reserves the hostname for the help center before the provider hears of it:
   * the unique index decides between concurrent adds (409 1970 for the loser).
   */
  async reserve(tenantID: string, helpCenterID: string, hostname: string): Promise<StoredDomain> {
    try {
      const rows: StoredDomain[] = await this.dataSource.query(
        `INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [tenantID, helpCenterID, hostname],
      );
      return rows[0];
    } catch (error) {
      rethrowUniqueViolation(error, { helpdesk_domains_hostname_key: 'DomainHostnameTaken' });
    }
  }

  /**
   * Records what the provider said. `verified_at` is stamped once, the first
   * time the domain is seen active, and never moved afterwards. Undefined when
   * the domain was removed meanwhile.
   */
  async recordCheck(
    domain: Pick<StoredDomain, 'id' | 'tenantID'>,
    check: { providerID: string; status: HelpdeskDomainStatus; checkedAt: Date },
  ): Promise<StoredDomain | undefined> {
    // An UPDATE answers [rows, affected count] through TypeORM.
    const [rows]: [StoredDomain[], number] = await this.dataSource.query(
      `UPDATE helpdesk_domains
          SET provider_id = $3,
              status = $4,
              last_checked_at = $5,
              verified_at = CASE WHEN $4 = 'active' AND verified_at IS NULL THEN $5 ELSE verified_at END
        WHERE id = $1 AND tenant_id = $2
        RETURNING ${COLUMNS}`,
      [domain.id, domain.tenantID, check.providerID, check.status, check.checkedAt],
    );
    return rows[0];
  }

  async remove(domain: Pick<StoredDomain, 'id' | 'tenantID'>): Promise<void> {
    await this.dataSource.query('DELETE FROM helpdesk_domains WHERE id = $1 AND tenant_id = $2', [domain.id, domain.tenantID]);
  }

  /** A page of the tenant's domains, by hostname (unique, so a total order). */
  async list(tenantID: string, page: { offset: number; limit: number }): Promise<StoredDomain[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM helpdesk_domains WHERE tenant_id = $1 ORDER BY hostname LIMIT $2 OFFSET $3`, [
      tenantID,
      page.limit,
      page.offset,
    ]);
  }

  async count(tenantID: string): Promise<number> {
    const rows: { count: string }[] = await this.dataSource.query('SELECT count(*) AS count FROM helpdesk_domains WHERE tenant_id = $1', [tenantID]);
    return Number(rows[0].count);
  }
}
