import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { CredentialStore, TenantAccessService } from '@platform/auth';
import type { TenantScope } from '@platform/auth';
import type { DeletePluginConnectionReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { propagatedHeaders } from '@platform/observability';
import { WebhookEvents } from '@platform/webhooks';
import { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import { ClaimedConnection, PluginConnectionRemovalsRepository } from './plugin-connection-removals.repository';
import { VmProvider } from './vms/vm.provider';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

/** How long a removal's claim holds if its replica never finishes it (milliseconds). */
export const REMOVAL_CLAIM_LEASE_MS = Symbol('REMOVAL_CLAIM_LEASE_MS');

/**
 * A claim outlives the slowest removal that is still working: the VM call
 * (bounded by its timeout) plus this margin for the Redis and PostgreSQL
 * steps around it. Short, because a delete that finds a dead replica's claim
 * waits for it to lapse, within one transport request.
 */
export const removalClaimLeaseMs = (vmProviderTimeoutMs: number): number => vmProviderTimeoutMs + 1_000;

/** How often a delete that found another removal in progress looks again. */
const CLAIM_POLL_MS = 50;
const REVOCATION_ATTEMPTS = 3;

export interface DeletePluginConnectionCommand {
  /** The tenant services-api checked the owner's access to. */
  scope: TenantScope;
  pluginConnectionID: string;
}

/**
 * Operation 1. No step holds a row lock or a database connection while the
 * VM provider is called:
 * 1. the live connection is claimed for removal (one UPDATE with a lease);
 *    a concurrent delete finds the claim and waits for the outcome, then
 *    answers 404 1054 if the connection was removed, or claims it itself if
 *    the first failed. The connection stays live while claimed: its token
 *    works and every other operation sees it, since a failure keeps it;
 * 2. the removal is marked in progress in Redis, so that from now on every
 *    replica checks the token against PostgreSQL rather than its cache; if
 *    Redis cannot record that, the claim is given up (503 5903);
 * 3. a hosted connection's VM is deleted at the provider, outside any
 *    transaction; if that fails, the claim is given up (502 5002) and the
 *    connection is as before;
 * 4. one statement marks the connection removed and, for a paid one,
 *    records its subscription item for cancellation (billing_cancellations);
 *    its audit record and `pluginConnection.removed` event commit with it;
 * 5. the token is revoked in Redis for every replica, and the cancellation
 *    worker is nudged; it retries until the provider confirms.
 * A replica that dies after 1 leaves a claim that lapses with its lease: the
 * connection is then live, as if never asked (its VM may be gone, which the
 * next delete counts as deleted), and asking again removes it. Dying after 4
 * leaves it removed with its token refused and its cancellation recorded
 * (CredentialStore explains how the token check sees the removal).
 */
@Injectable()
export class DeletePluginConnectionUseCase {
  private readonly logger = new Logger(DeletePluginConnectionUseCase.name);

  constructor(
    private readonly removals: PluginConnectionRemovalsRepository,
    private readonly vms: VmProvider,
    private readonly credentials: CredentialStore,
    private readonly access: TenantAccessService,
    private readonly cancellations: BillingCancellationWorker,
    @Inject(REMOVAL_CLAIM_LEASE_MS) private readonly claimLeaseMs: number,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookEvents,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: DeletePluginConnectionCommand): Promise<DeletePluginConnectionReply> {
    const { scope, pluginConnectionID } = command;
    const claimID = randomUUID();
    const connection = await this.claim(scope, pluginConnectionID, claimID);

    await this.credentials.beginRemoval(pluginConnectionID).catch(async (error: unknown) => {
      await this.giveUp(pluginConnectionID, claimID, { removalBegun: false });
      throw new AppException('InternalServiceUnavailable', { cause: error });
    });
    if (connection.kind === 'hosted' && connection.vmID) {
      await this.vms.deleteVm(connection.vmID).catch(async (error: unknown) => {
        await this.giveUp(pluginConnectionID, claimID, { removalBegun: true });
        throw new AppException('BadGateway', { cause: error });
      });
    }
    const completed = await this.removals
      .transaction(async (runner) => {
        // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
        await this.handled.record(runner);
        const removed = await this.removals.complete(scope, pluginConnectionID, propagatedHeaders() ?? null, runner);
        if (removed) {
          await this.audit.record(runner, scope, {
            action: 'pluginConnection.deleted',
            targetID: pluginConnectionID,
            summary: {
              pluginID: connection.pluginID,
              kind: connection.kind,
              vm: connection.kind === 'hosted' && connection.vmID ? 'deleted' : 'none',
              billing: connection.kind === 'paid' ? 'cancellation scheduled' : 'none',
            },
          });
          await this.webhooks.emit(runner, scope, {
            type: 'pluginConnection.removed',
            subject: `pluginConnection:${pluginConnectionID}`,
            data: { pluginConnectionID, pluginID: connection.pluginID, pluginName: connection.pluginName },
          });
        }
        return removed;
      })
      .catch(async (error: unknown) => {
        await this.giveUp(pluginConnectionID, claimID, { removalBegun: true });
        throw error;
      });
    // Another removal, which took over a claim of ours that had lapsed, completed it first.
    if (!completed) throw new AppException('PluginConnectionNotFound');

    await this.revoke(pluginConnectionID);
    await this.access.forget(scope.tenantID, `plugin:${connection.pluginID}`).catch(() => undefined);
    if (connection.kind === 'paid') this.cancellations.nudge();
    return { deleted: true };
  }

  /** Claims the connection, waiting out another removal in progress; 404 1054 once it is not live. */
  private async claim(scope: TenantScope, pluginConnectionID: string, claimID: string): Promise<ClaimedConnection> {
    for (;;) {
      const outcome = await this.removals.claim(scope, pluginConnectionID, claimID, this.claimLeaseMs);
      if (outcome === 'not-live') throw new AppException('PluginConnectionNotFound');
      if (outcome !== 'claimed-elsewhere') return outcome;
      await sleep(CLAIM_POLL_MS);
    }
  }

  /**
   * The removal did not happen: the connection is live, so its token may be
   * cached again, and the next delete may claim it. The Redis mark is cleared
   * before the claim is released, and only while the claim is still ours, so
   * that it is never the mark of a removal that took over. Best effort: what
   * cannot be cleared lapses on its own (the claim with its lease, the mark
   * after ten minutes).
   */
  private async giveUp(pluginConnectionID: string, claimID: string, { removalBegun }: { removalBegun: boolean }): Promise<void> {
    try {
      if (removalBegun && (await this.removals.holds(pluginConnectionID, claimID))) await this.credentials.abandonRemoval(pluginConnectionID);
      await this.removals.release(pluginConnectionID, claimID);
    } catch (error) {
      this.logger.warn({ err: error, pluginConnectionID }, 'removal claim not released; it lapses with its lease');
    }
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
        else await sleep(50 * attempt);
      }
    }
  }
}
