import { Injectable, Logger } from '@nestjs/common';
import { CredentialStore, TenantAccessService } from '@platform/auth';
import { DeletePluginConnectionPayload, DeletePluginConnectionReply } from '@platform/contracts';
import type { PluginConnectionKind } from '@platform/database';
import { AppException } from '@platform/errors';
import { propagatedHeaders } from '@platform/observability';
import { DataSource } from 'typeorm';
import { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import { VmProvider } from './vms/vm.provider';

interface LiveConnection {
  plugin_id: string;
  kind: PluginConnectionKind;
  subscription_item_id: string | null;
  vm_id: string | null;
}

const REVOCATION_ATTEMPTS = 3;

/**
 * SPEC.md operation 1, in one transaction holding the connection's row lock:
 * 1. the removal is marked in progress in Redis, so that from now on every
 *    replica checks the token against PostgreSQL rather than its cache; if
 *    Redis cannot record that, nothing is done (503 5903);
 * 2. a hosted connection's VM is deleted at the provider; if that fails the
 *    transaction rolls back (502 5002) and the connection stays live;
 * 3. the connection is marked removed and, for a paid one, its subscription
 *    item is recorded for cancellation (billing_cancellations), both or neither;
 * 4. after commit, the token is revoked in Redis for every replica, and the
 *    cancellation worker is nudged; it retries until the provider confirms.
 * Whatever crashes between these steps, the connection ends either live with
 * its token working, or removed with its token refused and its cancellation
 * recorded (CredentialStore explains how the token check sees the removal).
 * A concurrent delete of the same connection waits for the lock, then finds
 * it removed: 404 1054.
 */
@Injectable()
export class DeletePluginConnectionUseCase {
  private readonly logger = new Logger(DeletePluginConnectionUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly vms: VmProvider,
    private readonly credentials: CredentialStore,
    private readonly access: TenantAccessService,
    private readonly cancellations: BillingCancellationWorker,
  ) {}

  async execute(payload: DeletePluginConnectionPayload): Promise<DeletePluginConnectionReply> {
    let removalBegun = false;
    const removed = await this.dataSource
      .transaction(async (manager) => {
        const rows: LiveConnection[] = await manager.query(
          `SELECT plugin_id, kind, subscription_item_id, vm_id FROM plugin_connections
            WHERE id = $1 AND tenant_id = $2 AND status = 'live'
            FOR UPDATE`,
          [payload.pluginConnectionID, payload.tenantID],
        );
        const connection = rows[0];
        if (!connection) throw new AppException('PluginConnectionNotFound');

        await this.credentials.beginRemoval(payload.pluginConnectionID).catch((error: unknown) => {
          throw new AppException('InternalServiceUnavailable', { cause: error });
        });
        removalBegun = true;
        if (connection.kind === 'hosted' && connection.vm_id) {
          await this.vms.deleteVm(connection.vm_id).catch((error: unknown) => {
            throw new AppException('BadGateway', { cause: error });
          });
        }
        await manager.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [payload.pluginConnectionID]);
        if (connection.kind === 'paid' && connection.subscription_item_id) {
          await manager.query(
            `INSERT INTO billing_cancellations (plugin_connection_id, subscription_item_id, headers) VALUES ($1, $2, $3)
             ON CONFLICT (subscription_item_id) DO NOTHING`,
            [payload.pluginConnectionID, connection.subscription_item_id, propagatedHeaders() ?? null],
          );
        }
        return connection;
      })
      .catch(async (error: unknown) => {
        // Rolled back: the connection is live, so its token may be cached again.
        if (removalBegun) await this.credentials.abandonRemoval(payload.pluginConnectionID);
        throw error;
      });

    await this.revoke(payload.pluginConnectionID);
    await this.access.forget(payload.tenantID, `plugin:${removed.plugin_id}`).catch(() => undefined);
    if (removed.kind === 'paid') this.cancellations.nudge();
    return { deleted: true };
  }

  /**
   * The removal is committed: PostgreSQL refuses the token, and the removal
   * mark keeps every replica asking PostgreSQL. The tombstone spares them
   * that read; retry briefly, and if Redis stays away the mark still holds.
   */
  private async revoke(pluginConnectionID: string): Promise<void> {
    for (let attempt = 1; attempt <= REVOCATION_ATTEMPTS; attempt += 1) {
      try {
        await this.credentials.revokeConnection(pluginConnectionID);
        return;
      } catch (error) {
        if (attempt === REVOCATION_ATTEMPTS) this.logger.error({ err: error, pluginConnectionID }, 'token revocation in Redis failed');
        else await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }
}
