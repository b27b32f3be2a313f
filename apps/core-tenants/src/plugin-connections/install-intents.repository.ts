import { Injectable } from '@nestjs/common';
import type { PluginConnectionKind } from '@platform/database';
import { firstRow, run, sql, SqlRunner } from '@platform/database';
import { DataSource } from 'typeorm';

/** What the provider create of an install is asked with: replaying it needs the very same parameters. */
// eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows, which replay an intent in flight
export type ProviderRequest = { subscriptionId: string; priceId: string } | { image: string } | Record<string, never>;

export interface NewInstallIntent {
  id: string;
  tenantID: string;
  pluginID: string;
  kind: PluginConnectionKind;
  providerRequest: ProviderRequest;
  claimID: string;
  leaseSeconds: number;
  headers: Record<string, string> | null;
}

/** A pending intent claimed by the reconciler for one attempt. */
export interface DueIntent {
  id: string;
  tenantID: string;
  kind: PluginConnectionKind;
  providerRequest: ProviderRequest;
  generation: number;
  attempts: number;
  claimID: string;
  headers: Record<string, string> | null;
  /** Whether the connection row was committed: the intent is then simply done. */
  connected: boolean;
}

/**
 * The claim of an install that gave up: no claim id an install or the
 * reconciler holds, so the install can no longer commit; a retry under the
 * same key may take it over at once, the reconciler once `claimed_until` passes.
 */
const RELEASED_CLAIM = '00000000-0000-0000-0000-000000000000';

/**
 * Writes the intent, or takes over the same one on a retry under the same
 * key: an undone intent starts a new generation (fresh provider keys, as the
 * old ones answer what was already released); a pending one whose claim
 * lapsed (its install died) is claimed again. Nothing when it is installed or
 * another request holds it.
 */
const OPEN = sql<
  { generation: number },
  [id: string, tenantID: string, pluginID: string, kind: string, providerRequest: string, claimID: string, leaseSeconds: number, headers: Record<string, string> | null]
>(
  `INSERT INTO plugin_connection_install_intents AS i (id, tenant_id, plugin_id, kind, provider_request, claim_id, claimed_until, headers)
        VALUES ($1, $2, $3, $4, $5::jsonb, $6, now() + make_interval(secs => $7), $8)
   ON CONFLICT (id) DO UPDATE
          SET claim_id = EXCLUDED.claim_id, claimed_until = EXCLUDED.claimed_until, headers = EXCLUDED.headers,
              provider_request = CASE WHEN i.state = 'undone' THEN EXCLUDED.provider_request ELSE i.provider_request END,
              generation = CASE WHEN i.state = 'undone' THEN i.generation + 1 ELSE i.generation END,
              state = 'pending', completed_at = NULL, attempts = 0, last_error = NULL
        WHERE i.tenant_id = EXCLUDED.tenant_id AND i.plugin_id = EXCLUDED.plugin_id
          AND (i.state = 'undone' OR (i.state = 'pending' AND (i.claimed_until <= now() OR i.claim_id = '${RELEASED_CLAIM}')))
   RETURNING generation`,
);

const STATE_OF = sql<{ state: string }, [id: string]>(`SELECT state FROM plugin_connection_install_intents WHERE id = $1`);

const MARK_INSTALLED = sql<{ id: string }, [id: string, claimID: string]>(
  `UPDATE plugin_connection_install_intents SET state = 'installed', completed_at = now()
    WHERE id = $1 AND claim_id = $2 AND state = 'pending'
    RETURNING id`,
);

const HAND_OVER = sql<never, [id: string, claimID: string, delaySeconds: number]>(
  `UPDATE plugin_connection_install_intents SET claim_id = '${RELEASED_CLAIM}', claimed_until = now() + make_interval(secs => $3)
    WHERE id = $1 AND claim_id = $2 AND state = 'pending'`,
);

const CLAIM_DUE = sql<DueIntent, [claimID: string, leaseSeconds: number]>(
  `UPDATE plugin_connection_install_intents i SET claim_id = $1, claimed_until = now() + make_interval(secs => $2)
    WHERE id = (SELECT id FROM plugin_connection_install_intents
                 WHERE state = 'pending' AND claimed_until <= now()
                 ORDER BY claimed_until
                 LIMIT 1
                 FOR UPDATE SKIP LOCKED)
    RETURNING id, tenant_id AS "tenantID", kind, provider_request AS "providerRequest", generation, attempts, claim_id AS "claimID", headers,
              EXISTS (SELECT 1 FROM plugin_connections c WHERE c.id = i.id) AS connected`,
);

const MARK_UNDONE = sql<{ id: string }, [id: string, claimID: string]>(
  `UPDATE plugin_connection_install_intents SET state = 'undone', completed_at = now(), attempts = attempts + 1, last_error = NULL
    WHERE id = $1 AND claim_id = $2 AND state = 'pending'
    RETURNING id`,
);

/** One statement: the intent is undone and its item's cancellation recorded in the outbox, or neither. */
const MARK_UNDONE_CANCELING = sql<{ id: string }, [id: string, claimID: string, subscriptionItemID: string]>(
  `WITH undone AS (
     UPDATE plugin_connection_install_intents SET state = 'undone', completed_at = now(), attempts = attempts + 1, last_error = NULL
      WHERE id = $1 AND claim_id = $2 AND state = 'pending'
      RETURNING id, headers)
   INSERT INTO billing_cancellations (plugin_connection_id, subscription_item_id, headers)
   SELECT id, $3, headers FROM undone
   ON CONFLICT (subscription_item_id) DO NOTHING
   RETURNING plugin_connection_id AS id`,
);

const RECORD_FAILURE = sql<never, [id: string, claimID: string, error: string, retryInSeconds: number]>(
  `UPDATE plugin_connection_install_intents
      SET attempts = attempts + 1, last_error = $3, claimed_until = now() + make_interval(secs => $4)
    WHERE id = $1 AND claim_id = $2 AND state = 'pending'`,
);

/**
 * Install intents (plugin_connection_install_intents): written before an
 * install calls a provider, closed by the install's own commit or by the
 * reconciler. Every change after the write names the claim it acts under, so
 * an install that stalled past its lease cannot commit over a reconciler that
 * took the intent over, nor the other way round.
 */
@Injectable()
export class InstallIntentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The intent's generation, or the state that keeps this request from acting on it. */
  async open(intent: NewInstallIntent): Promise<{ generation: number } | { busy: 'installed' | 'in-progress' }> {
    const row = await firstRow(this.dataSource, OPEN, [
      intent.id,
      intent.tenantID,
      intent.pluginID,
      intent.kind,
      JSON.stringify(intent.providerRequest),
      intent.claimID,
      intent.leaseSeconds,
      intent.headers,
    ]);
    if (row) return { generation: row.generation };
    const existing = await firstRow(this.dataSource, STATE_OF, [intent.id]);
    return { busy: existing?.state === 'installed' ? 'installed' : 'in-progress' };
  }

  /** In the connection's transaction: false when the claim was lost (the transaction must roll back). */
  async markInstalled(id: string, claimID: string, runner: SqlRunner = this.dataSource): Promise<boolean> {
    return (await firstRow(runner, MARK_INSTALLED, [id, claimID])) !== undefined;
  }

  /** The connection was committed: the intent is simply done. */
  async markInstalledByReconciler(id: string, claimID: string): Promise<void> {
    await run(this.dataSource, MARK_INSTALLED, [id, claimID]);
  }

  /** The install gives up its claim: a retry may take the intent at once, the reconciler after `delaySeconds`. */
  async handOver(id: string, claimID: string, delaySeconds: number): Promise<void> {
    await run(this.dataSource, HAND_OVER, [id, claimID, delaySeconds]);
  }

  async claimDue(claimID: string, leaseSeconds: number): Promise<DueIntent | undefined> {
    return firstRow(this.dataSource, CLAIM_DUE, [claimID, leaseSeconds]);
  }

  async markUndone(id: string, claimID: string): Promise<boolean> {
    return (await firstRow(this.dataSource, MARK_UNDONE, [id, claimID])) !== undefined;
  }

  async markUndoneCanceling(id: string, claimID: string, subscriptionItemID: string): Promise<void> {
    await run(this.dataSource, MARK_UNDONE_CANCELING, [id, claimID, subscriptionItemID]);
  }

  async recordFailure(id: string, claimID: string, error: string, retryInSeconds: number): Promise<void> {
    await run(this.dataSource, RECORD_FAILURE, [id, claimID, error, retryInSeconds]);
  }
}
