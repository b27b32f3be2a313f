import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import type { HelpdeskDomainStatus } from '@platform/database';
import { AppException, rethrowUniqueViolation } from '@platform/errors';

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

/** A domain as a check left it, with the status it had before (locked, so no other change came between). */
export type CheckedDomain = StoredDomain & { previousStatus: HelpdeskDomainStatus };

/** Which help center a hostname serves. */
export interface HostnameEntry {
  tenantID: string;
  helpCenterID: string;
}

/** What the provider said, as recorded on the domain. */
export interface DomainCheck {
  providerID: string;
  status: HelpdeskDomainStatus;
  checkedAt: Date;
}

const COLUMNS = `id, tenant_id AS "tenantID", hostname, provider_id AS "providerID", status,
                 last_checked_at AS "lastCheckedAt", verified_at AS "verifiedAt"`;

const ENSURE_HELP_CENTER = sql<{ id: string }, [tenantID: string]>(
  `INSERT INTO help_centers (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id
       RETURNING id`,
);

const BY_HOSTNAME = sql<StoredDomain, [tenantID: string, hostname: string]>(
  `SELECT ${COLUMNS} FROM helpdesk_domains WHERE tenant_id = $1 AND hostname = $2`,
);

const HOSTNAME_TAKEN = sql<{ taken: boolean }, [hostname: string]>('SELECT EXISTS (SELECT 1 FROM helpdesk_domains WHERE hostname = $1) AS taken');

/** Serialises the adds of one help center (see reserve). */
const LOCK_HELP_CENTER = sql<{ id: string }, [helpCenterID: string]>('SELECT id FROM help_centers WHERE id = $1 FOR UPDATE');

/** Inserts only while the help center has fewer than `$4` domains; no row when it is full. */
const RESERVE_WITHIN_LIMIT = sql<StoredDomain, [tenantID: string, helpCenterID: string, hostname: string, limit: number]>(
  `INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname)
       SELECT $1::uuid, $2::uuid, $3::text
        WHERE (SELECT count(*) FROM helpdesk_domains WHERE help_center_id = $2::uuid) < $4::int
       RETURNING ${COLUMNS}`,
);

const RECORD_CHECK = sql<CheckedDomain, [id: string, tenantID: string, providerID: string, status: HelpdeskDomainStatus, checkedAt: Date]>(
  `WITH before AS (SELECT id AS before_id, status AS previous_status FROM helpdesk_domains WHERE id = $1 AND tenant_id = $2 FOR UPDATE)
       UPDATE helpdesk_domains
          SET provider_id = $3,
              status = $4,
              last_checked_at = $5,
              verified_at = CASE WHEN $4 = 'active' AND verified_at IS NULL THEN $5 ELSE verified_at END
         FROM before
        WHERE id = before.before_id
        RETURNING ${COLUMNS}, before.previous_status AS "previousStatus"`,
);

const REMOVE = sql<never, [id: string, tenantID: string]>('DELETE FROM helpdesk_domains WHERE id = $1 AND tenant_id = $2');

const PAGE = sql<StoredDomain, [tenantID: string, limit: number, offset: number]>(
  `SELECT ${COLUMNS} FROM helpdesk_domains WHERE tenant_id = $1 ORDER BY hostname LIMIT $2 OFFSET $3`,
);

const COUNT = sql<{ count: string }, [tenantID: string]>('SELECT count(*) AS count FROM helpdesk_domains WHERE tenant_id = $1');

const ENTRY_BY_HOSTNAME = sql<HostnameEntry, [hostname: string]>(
  `SELECT tenant_id AS "tenantID", help_center_id AS "helpCenterID" FROM helpdesk_domains WHERE hostname = $1`,
);

/**
 * Help centers and their domains. Every method on a tenant's data takes its
 * scope; the two by hostname alone (is it taken, which help center it
 * serves) are platform-wide, as the hostname is unique platform-wide.
 */
@Injectable()
export class DomainsRepository extends TransactionalRepository {
  /** The tenant's help center, created on first use (one per tenant, race-free). */
  async ensureHelpCenter(scope: TenantScope): Promise<string> {
    const created = await firstRow(this.dataSource, ENSURE_HELP_CENTER, [scope.tenantID]);
    if (!created) throw new Error('help center upsert returned no row');
    return created.id;
  }

  /** The tenant's domain `hostname`, if it has one. */
  async byHostname(scope: TenantScope, hostname: string): Promise<StoredDomain | undefined> {
    return firstRow(this.dataSource, BY_HOSTNAME, [scope.tenantID, hostname]);
  }

  async hostnameTaken(hostname: string): Promise<boolean> {
    return (await firstRow(this.dataSource, HOSTNAME_TAKEN, [hostname]))?.taken ?? false;
  }

  /**
   * Reserves the hostname for the help center before the provider hears of it,
   * unless the help center already has `limit` domains (409 1972): the unique
   * index decides between concurrent adds of one hostname (409 1970 for the
   * loser). The count is race-free: the help center's row is locked first, so
   * concurrent adds of one tenant queue here, and the count runs after the
   * lock is granted, in its own statement, whose READ COMMITTED snapshot sees
   * every reservation committed by the adds before it. (Counting inside the
   * locking statement would not do: a statement's snapshot is taken before it
   * waits for the lock.)
   */
  async reserve(scope: TenantScope, helpCenterID: string, hostname: string, limit: number): Promise<StoredDomain> {
    try {
      return await this.transaction(async (runner) => {
        await firstRow(runner, LOCK_HELP_CENTER, [helpCenterID]);
        const reserved = await firstRow(runner, RESERVE_WITHIN_LIMIT, [scope.tenantID, helpCenterID, hostname, limit]);
        if (!reserved) throw new AppException('DomainLimitReached');
        return reserved;
      });
    } catch (error) {
      rethrowUniqueViolation(error, { helpdesk_domains_hostname_key: 'DomainHostnameTaken' });
    }
  }

  /**
   * Records what the provider said. `verified_at` is stamped once, the first
   * time the domain is seen active, and never moved afterwards. Undefined when
   * the domain was removed meanwhile.
   */
  async recordCheck(scope: TenantScope, domainID: string, check: DomainCheck, runner: SqlRunner = this.dataSource): Promise<CheckedDomain | undefined> {
    return firstRow(runner, RECORD_CHECK, [domainID, scope.tenantID, check.providerID, check.status, check.checkedAt]);
  }

  /** Deletes the domain; false when it was gone already. */
  async remove(scope: TenantScope, domainID: string, runner: SqlRunner = this.dataSource): Promise<boolean> {
    return (await run(runner, REMOVE, [domainID, scope.tenantID])).count > 0;
  }

  /** A page of the tenant's domains, by hostname (unique, so a total order). */
  async list(scope: TenantScope, page: { offset: number; limit: number }): Promise<StoredDomain[]> {
    return rows(this.dataSource, PAGE, [scope.tenantID, page.limit, page.offset]);
  }

  async count(scope: TenantScope): Promise<number> {
    return Number((await firstRow(this.dataSource, COUNT, [scope.tenantID]))?.count ?? 0);
  }

  /** Which help center `hostname` serves: PostgreSQL's answer, behind the hostname cache (HostnameDirectory). */
  async entryOf(hostname: string): Promise<HostnameEntry | undefined> {
    return firstRow(this.dataSource, ENTRY_BY_HOSTNAME, [hostname]);
  }
}
