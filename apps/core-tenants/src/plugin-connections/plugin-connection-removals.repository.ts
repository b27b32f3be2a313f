import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { PluginConnectionKind } from '@platform/database';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

/** What removing a connection needs to know of it. */
export interface ClaimedConnection {
  pluginID: string;
  /** The plugin's name, as events about its connections tell it. */
  pluginName: string;
  kind: PluginConnectionKind;
  vmID: string | null;
}

/** Why a connection was not claimed: it is not live on this tenant, or another removal holds it. */
export type ClaimRefusal = 'not-live' | 'claimed-elsewhere';

const CLAIM = sql<ClaimedConnection, [pluginConnectionID: string, tenantID: string, claimID: string, leaseSeconds: number]>(
  `UPDATE plugin_connections
          SET removal_claim_id = $3, removal_claimed_until = now() + make_interval(secs => $4)
        WHERE id = $1 AND tenant_id = $2 AND status = 'live'
          AND (removal_claimed_until IS NULL OR removal_claimed_until <= now())
        RETURNING plugin_id AS "pluginID", kind, vm_id AS "vmID",
                  (SELECT p.name FROM plugins p WHERE p.id = plugin_connections.plugin_id) AS "pluginName"`,
);

const IS_LIVE = sql<object, [pluginConnectionID: string, tenantID: string]>(
  `SELECT 1 FROM plugin_connections WHERE id = $1 AND tenant_id = $2 AND status = 'live'`,
);

const HOLDS_CLAIM = sql<object, [pluginConnectionID: string, claimID: string]>(`SELECT 1 FROM plugin_connections WHERE id = $1 AND removal_claim_id = $2`);

const RELEASE_CLAIM = sql<never, [pluginConnectionID: string, claimID: string]>(
  `UPDATE plugin_connections SET removal_claim_id = NULL, removal_claimed_until = NULL WHERE id = $1 AND removal_claim_id = $2`,
);

const COMPLETE = sql<{ removed: number }, [pluginConnectionID: string, tenantID: string, headers: Record<string, string> | null]>(
  `WITH removed AS (
         UPDATE plugin_connections
            SET status = 'removed', removed_at = now(), removal_claim_id = NULL, removal_claimed_until = NULL
          WHERE id = $1 AND tenant_id = $2 AND status = 'live'
          RETURNING id, kind, subscription_item_id
       ), cancellation AS (
         INSERT INTO billing_cancellations (plugin_connection_id, subscription_item_id, headers)
         SELECT id, subscription_item_id, $3::jsonb FROM removed WHERE kind = 'paid' AND subscription_item_id IS NOT NULL
         ON CONFLICT (subscription_item_id) DO NOTHING
       )
       SELECT count(*)::int AS removed FROM removed`,
);

/**
 * The removal of plugin connections (docs/plugin-connections.md). Every
 * statement here commits on its own, so that no row lock and no pool
 * connection is held while the VM provider is called between them.
 */
@Injectable()
export class PluginConnectionRemovalsRepository extends TransactionalRepository {
  /**
   * Claims a live connection of the tenant for removal until the lease runs
   * out, unless another removal holds an unexpired claim. The lease is read
   * from PostgreSQL's clock, so every replica agrees on it.
   */
  async claim(scope: TenantScope, pluginConnectionID: string, claimID: string, leaseMs: number): Promise<ClaimedConnection | ClaimRefusal> {
    const claimed = await firstRow(this.dataSource, CLAIM, [pluginConnectionID, scope.tenantID, claimID, leaseMs / 1000]);
    if (claimed) return claimed;
    const live = await rows(this.dataSource, IS_LIVE, [pluginConnectionID, scope.tenantID]);
    return live.length > 0 ? 'claimed-elsewhere' : 'not-live';
  }

  /**
   * Whether the claim is still this one's (a claim whose lease ran out may
   * have been taken over). No scope: only a scoped `claim` hands out a claim id.
   */
  async holds(pluginConnectionID: string, claimID: string): Promise<boolean> {
    return (await rows(this.dataSource, HOLDS_CLAIM, [pluginConnectionID, claimID])).length > 0;
  }

  /** Gives a failed removal's claim up: the connection is live and unclaimed, as before. Keyed by the claim, as `holds`. */
  async release(pluginConnectionID: string, claimID: string): Promise<void> {
    await run(this.dataSource, RELEASE_CLAIM, [pluginConnectionID, claimID]);
  }

  /**
   * Removes the connection and, for a paid one, records its subscription
   * item for cancellation (billing_cancellations, the outbox the cancellation
   * worker reads): one statement, so both or neither. False if the connection
   * is no longer live because another removal completed it first. Whose claim
   * it is does not matter here: once the provider side is gone, the
   * connection must go.
   */
  async complete(scope: TenantScope, pluginConnectionID: string, headers: Record<string, string> | null, runner: SqlRunner = this.dataSource): Promise<boolean> {
    const row = await firstRow(runner, COMPLETE, [pluginConnectionID, scope.tenantID, headers]);
    return (row?.removed ?? 0) > 0;
  }
}
