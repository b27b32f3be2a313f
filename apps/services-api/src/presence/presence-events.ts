import { Injectable } from '@nestjs/common';
import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { WebhookEvents } from '@platform/webhooks';
import type { PresenceRow } from './presence.repository';

/**
 * `operator.presenceChanged` (docs/presence.md#events): one event per
 * change of an operator's status in effect, appended in the change's
 * transaction, subject `operator:<operatorID>` (so an operator's changes
 * reach each consumer in order: the row's lock orders their commits).
 * Moves of several tenants (the reconciler's) are appended per tenant.
 */
@Injectable()
export class PresenceEvents {
  constructor(private readonly events: WebhookEvents) {}

  async announce(runner: SqlRunner, changed: readonly PresenceRow[]): Promise<void> {
    const byTenant = new Map<string, PresenceRow[]>();
    for (const row of changed) byTenant.set(row.tenantID, [...(byTenant.get(row.tenantID) ?? []), row]);
    for (const [tenantID, rows] of byTenant) {
      // The rows were read from the tenant's own presence: the scope is theirs.
      await this.events.emitMany(
        runner,
        trustedTenantScope(tenantID),
        'operator.presenceChanged',
        rows.map((row) => ({
          subject: `operator:${row.operatorID}`,
          data: { operatorID: row.operatorID, status: row.status, chosenStatus: row.chosenStatus, changedAt: row.changedAt.toISOString() },
        })),
      );
    }
  }
}
