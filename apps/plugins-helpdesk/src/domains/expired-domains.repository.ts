import { Injectable } from '@nestjs/common';
import { firstRow, sql, SqlRunner, TransactionalRepository } from '@platform/database';

/** A pending domain past its expiry, as the sweep needs it. */
export interface ExpiredDomain {
  id: string;
  tenantID: string;
  hostname: string;
  providerID: string | null;
}

/**
 * The oldest pending domain never verified (a domain once active proved its
 * tenant holds the name, so it never expires) added at or before `$1`, locked for the caller's
 * transaction. SKIP LOCKED: replicas sweeping at once each take another row,
 * and a row another sweep holds is not waited for. `$2` are the rows this
 * sweep already failed to remove, left for the next sweep.
 */
const CLAIM_EXPIRED = sql<ExpiredDomain, [addedBefore: Date, skipped: string[]]>(
  `SELECT id, tenant_id AS "tenantID", hostname, provider_id AS "providerID"
     FROM helpdesk_domains
    WHERE status = 'pending' AND verified_at IS NULL AND created_at <= $1 AND NOT (id = ANY ($2::uuid[]))
    ORDER BY created_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED`,
);

/**
 * Reads for the expiry of pending domains (PendingDomainExpiry). Platform-wide
 * by nature: the sweep acts for no request, so it takes each row's tenant
 * from the row (trustedTenantScope) to drop it with DomainsRepository.remove.
 */
@Injectable()
export class ExpiredDomainsRepository extends TransactionalRepository {
  /** The next expired pending domain, locked until `runner`'s transaction ends; undefined when none is left. */
  async claimNext(runner: SqlRunner, addedBefore: Date, skipped: string[]): Promise<ExpiredDomain | undefined> {
    return firstRow(runner, CLAIM_EXPIRED, [addedBefore, skipped]);
  }
}
