import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { NotificationCounts } from './notification.dto';

const UNREAD_COUNTS = sql<{ category_key: string; unread: string }, [tenantID: string, operatorID: string]>(
  `SELECT category_key, unread FROM notification_unread_counts
        WHERE tenant_id = $1 AND operator_id = $2 AND unread > 0
        ORDER BY category_key`,
);

@Injectable()
export class NotificationCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The operator's unread counts in the tenant, one row per category, read
   * from the trigger-kept `notification_unread_counts` (one query; its cost
   * follows the number of categories, not of notifications).
   */
  async unreadCounts(scope: TenantScope, operatorID: string): Promise<NotificationCounts> {
    const counted = await rows(this.dataSource, UNREAD_COUNTS, [scope.tenantID, operatorID]);
    return Object.fromEntries(counted.map((row) => [row.category_key, Number(row.unread)]));
  }
}
