import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { WebhookEvents } from '@platform/webhooks';
import { NotificationCountsRepository } from './notification-counts.repository';

/**
 * `notifications.counts` (docs/conversations.md#events): after a change
 * moved operators' unread counts, and in its transaction, one event per
 * operator, subject `operator:<operatorID>`, carrying what operation 14
 * answers them as of the commit (the same repository read).
 *
 * Call it once per transaction, after its last notification write: it locks
 * the operators' counts (sorted), reads them, and appends every operator's
 * event with one statement, so a fan-out to 2,000 operators costs three
 * statements, never one per operator.
 */
@Injectable()
export class NotificationCountEvents {
  constructor(
    private readonly counts: NotificationCountsRepository,
    private readonly events: WebhookEvents,
  ) {}

  /**
   * Takes the operators' count locks (the ones `announce` takes) before the
   * transaction appends another event of their `operator:<id>` subject
   * (`notifications.read`): of two such changes of one operator, the later
   * appends only once the earlier committed, so their events are in commit
   * order on every consumer of the outbox.
   */
  async hold(runner: SqlRunner, scope: TenantScope, operatorIDs: readonly string[]): Promise<void> {
    await this.counts.lockOperatorCounts(runner, scope, [...new Set(operatorIDs)]);
  }

  async announce(runner: SqlRunner, scope: TenantScope, operatorIDs: readonly string[]): Promise<void> {
    const operators = [...new Set(operatorIDs)];
    if (operators.length === 0) return;
    await this.counts.lockOperatorCounts(runner, scope, operators);
    const counted = await this.counts.unreadCountsOf(scope, operators, runner);
    await this.events.emitMany(
      runner,
      scope,
      'notifications.counts',
      operators.map((operatorID) => ({ subject: `operator:${operatorID}`, data: { operatorID, counts: counted.get(operatorID) ?? {} } })),
    );
  }
}
