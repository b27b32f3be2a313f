import { Injectable } from '@nestjs/common';
import type { PluginConnectionKind } from '@platform/database';
import { DataSource } from 'typeorm';

/** What removing a connection needs to know of it. */
export interface ClaimedConnection {
  pluginID: string;
  kind: PluginConnectionKind;
  vmID: string | null;
}

/** Why a connection was not claimed: it is not live on this tenant, or another removal holds it. */
export type ClaimRefusal = 'not-live' | 'claimed-elsewhere';

/**
 * The removal of plugin connections (docs/plugin-connections.md). Every
 * statement here commits on its own, so that no row lock and no pool
 * connection is held while the VM provider is called between them.
 */
@Injectable()
export class PluginConnectionRemovalsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims a live connection of the tenant for removal until the lease runs
   * out, unless another removal holds an unexpired claim. The lease is read
   * from PostgreSQL's clock, so every replica agrees on it.
   */
  async claim(tenantID: string, pluginConnectionID: string, claimID: string, leaseMs: number): Promise<ClaimedConnection | ClaimRefusal> {
    const [claimed]: [ClaimedConnection[], number] = await this.dataSource.query(
      `UPDATE plugin_connections
          SET removal_claim_id = $3, removal_claimed_until = now() + make_interval(secs => $4)
        WHERE id = $1 AND tenant_id = $2 AND status = 'live'
          AND (removal_claimed_until IS NULL OR removal_claimed_until <= now())
        RETURNING plugin_id AS "pluginID", kind, vm_id AS "vmID"`,
      [pluginConnectionID, tenantID, claimID, leaseMs / 1000],
    );
    if (claimed.length > 0) return claimed[0];
    const live: unknown[] = await this.dataSource.query(`SELECT 1 FROM plugin_connections WHERE id = $1 AND tenant_id = $2 AND status = 'live'`, [
      pluginConnectionID,
      tenantID,
    ]);
    return live.length > 0 ? 'claimed-elsewhere' : 'not-live';
  }

  /** Whether the claim is still this one's (a claim whose lease ran out may have been taken over). */
  async holds(pluginConnectionID: string, claimID: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM plugin_connections WHERE id = $1 AND removal_claim_id = $2`, [
      pluginConnectionID,
      claimID,
    ]);
    return rows.length > 0;
  }

  /** Gives a failed removal's claim up: the connection is live and unclaimed, as before. */
  async release(pluginConnectionID: string, claimID: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE plugin_connections SET removal_claim_id = NULL, removal_claimed_until = NULL WHERE id = $1 AND removal_claim_id = $2`,
      [pluginConnectionID, claimID],
    );
  }

  /**
   * Removes the connection and, for a paid one, records its subscription
   * item for cancellation (billing_cancellations, the outbox the cancellation
   * worker reads): one statement, so both or neither. False if the connection
   * is no longer live because another removal completed it first. Whose claim
   * it is does not matter here: once the provider side is gone, the
   * connection must go.
   */
  async complete(tenantID: string, pluginConnectionID: string, headers: Record<string, string> | null): Promise<boolean> {
    const rows: { removed: number }[] = await this.dataSource.query(
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
      [pluginConnectionID, tenantID, headers],
    );
    return rows[0].removed > 0;
  }
}
