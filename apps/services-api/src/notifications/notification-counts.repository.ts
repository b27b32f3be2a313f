import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationCounts } from './notification.dto';

@Injectable()
export class NotificationCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The operator's unread counts in the tenant, one row per category, read
   * from the trigger-kept `notification_unread_counts` (one query; its cost
   * follows the number of categories, not of notifications).
   */
  async unreadCounts(tenantID: string, operatorID: string): Promise<NotificationCounts> {
    const rows: { category_key: string; unread: string }[] = await this.dataSource.query(
      `SELECT category_key, unread FROM notification_unread_counts
        WHERE tenant_id = $1 AND operator_id = $2 AND unread > 0
        ORDER BY category_key`,
      [tenantID, operatorID],
    );
    return Object.fromEntries(rows.map((row) => [row.category_key, Number(row.unread)]));
  }
}
