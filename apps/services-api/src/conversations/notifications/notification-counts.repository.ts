import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { NotificationCounts } from '@platform/conversations';
import { rows, run, sql, SqlRunner } from '@platform/database';
import { DataSource } from 'typeorm';

/**
 * The unread counts of the given operators, one row per operator and
 * category: operation 14 asks for one operator, a change that moved many
 * operators' counts (a notification fan-out) for all of them at once. One
 * statement either way, on the primary key of `notification_unread_counts`.
 */
const UNREAD_COUNTS = sql<{ operator_id: string; category_key: string; unread: string }, [tenantID: string, operatorIDs: string[]]>(
  `SELECT operator_id, category_key, unread FROM notification_unread_counts
        WHERE tenant_id = $1 AND operator_id = ANY ($2::uuid[]) AND unread > 0
        ORDER BY operator_id, category_key`,
);

/**
 * Holds, until the transaction ends, the locks of the operators whose counts
 * the transaction changed, taken in one order (sorted keys) so two
 * transactions never wait on each other crosswise. Whoever changes an
 * operator's counts takes their lock before reading them for the
 * `notifications.counts` event: the next change of that operator reads only
 * once this one committed, so an operator's last event always holds their
 * counts as last committed. An operator's lock is one of
 * NOTIFICATION_COUNT_LOCKS per tenant (the low bits of a hash of their id):
 * a fan-out to 2,000 operators holds at most that many locks, not 2,000
 * entries of PostgreSQL's shared lock table; operators sharing a lock only
 * wait for each other's commit.
 */
const LOCK_OPERATOR_COUNTS = sql<never, [tenantID: string, operatorIDs: string[], locks: number]>(
  `SELECT pg_advisory_xact_lock(k.key)
     FROM (SELECT DISTINCT hashtextextended('notification-counts:' || $1::text || ':' || (hashtext(o.id::text) & ($3::int - 1))::text, 0) AS key
             FROM unnest($2::uuid[]) AS o(id) ORDER BY 1) AS k`,
);

/** Locks per tenant behind LOCK_OPERATOR_COUNTS (a power of two). */
export const NOTIFICATION_COUNT_LOCKS = 32;

@Injectable()
export class NotificationCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The operator's unread counts in the tenant (operation 14), read from the
   * trigger-kept `notification_unread_counts` (one query; its cost follows
   * the number of categories, not of notifications).
   */
  async unreadCounts(scope: TenantScope, operatorID: string, runner: SqlRunner = this.dataSource): Promise<NotificationCounts> {
    return (await this.unreadCountsOf(scope, [operatorID], runner)).get(operatorID) ?? {};
  }

  /** Each operator's unread counts in the tenant, as operation 14 answers them (`{}` for nothing unread), in one query. */
  async unreadCountsOf(scope: TenantScope, operatorIDs: string[], runner: SqlRunner = this.dataSource): Promise<Map<string, NotificationCounts>> {
    const counted = new Map<string, NotificationCounts>(operatorIDs.map((operatorID) => [operatorID, {}]));
    for (const row of await rows(runner, UNREAD_COUNTS, [scope.tenantID, operatorIDs])) {
      const counts = counted.get(row.operator_id);
      if (counts) counts[row.category_key] = Number(row.unread);
    }
    return counted;
  }

  /** Locks the operators' counts until `runner`'s transaction ends (LOCK_OPERATOR_COUNTS). */
  async lockOperatorCounts(runner: SqlRunner, scope: TenantScope, operatorIDs: string[]): Promise<void> {
    if (operatorIDs.length > 0) await run(runner, LOCK_OPERATOR_COUNTS, [scope.tenantID, operatorIDs, NOTIFICATION_COUNT_LOCKS]);
  }
}
