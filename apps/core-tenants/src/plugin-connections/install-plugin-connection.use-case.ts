import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { CredentialStore, generateSecretToken, hashSecretToken } from '@platform/auth';
import type { TenantScope } from '@platform/auth';
import type { InstallPluginConnectionReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { propagatedHeaders } from '@platform/observability';
import { WebhookEvents } from '@platform/webhooks';
import { InstallIntentReconciler } from './install-intent.reconciler';
import { InstallIntentsRepository, ProviderRequest } from './install-intents.repository';
import { installIntentID } from './install-keys';
import { InstallProvisioning, ProvisionedResources } from './install-provisioning';
import { InstallTarget, PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

/** How long an install holds its intent before the reconciler may take it over (seconds). */
export const INSTALL_INTENT_LEASE_SECONDS = Symbol('INSTALL_INTENT_LEASE_SECONDS');

export interface InstallPluginConnectionCommand {
  /** The tenant services-api checked the owner's access to. */
  scope: TenantScope;
  pluginID: string;
  /** The client's `Idempotency-Key`, scoped to its sender by services-api, when one was sent. */
  requestKey?: string;
}

/**
 * Installs a plugin on a tenant, leaving nothing at a provider unrecorded:
 *
 * 1. the intent is committed first (its id is the connection's id to be);
 * 2. the providers make what the kind needs (a subscription item for `paid`,
 *    a VM for `hosted`) under idempotency keys derived from the intent;
 * 3. the connection, its audit record, its `pluginConnection.installed`
 *    event and the intent's close commit together.
 *
 * Any failure after step 1, a crash included, leaves the intent pending: the
 * reconciler then finishes it (the connection was committed) or releases
 * what the providers made. The install never releases anything itself, so a
 * resource is released once, by one code path.
 */
@Injectable()
export class InstallPluginConnectionUseCase {
  constructor(
    private readonly installs: PluginConnectionInstallsRepository,
    private readonly intents: InstallIntentsRepository,
    private readonly provisioning: InstallProvisioning,
    private readonly reconciler: InstallIntentReconciler,
    private readonly audit: AuditTrail,
    @Inject(INSTALL_INTENT_LEASE_SECONDS) private readonly leaseSeconds: number,
    private readonly credentials: CredentialStore,
    private readonly webhooks: WebhookEvents,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: InstallPluginConnectionCommand): Promise<InstallPluginConnectionReply> {
    const { scope, pluginID } = command;
    const plugin = await this.installs.findTarget(scope, pluginID);
    if (!plugin) throw AppException.validation([{ field: 'pluginID', received: pluginID, allowed: 'the id of an existing plugin' }]);
    if (plugin.installed) throw new AppException('PluginAlreadyInstalled');

    const providerRequest = providerRequestOf(plugin, pluginID);
    const pluginConnectionID = installIntentID({ tenantID: scope.tenantID, pluginID, requestKey: command.requestKey });
    const claimID = randomUUID();
    const opened = await this.intents.open({
      id: pluginConnectionID,
      tenantID: scope.tenantID,
      pluginID,
      kind: plugin.kind,
      providerRequest,
      claimID,
      leaseSeconds: this.leaseSeconds,
      headers: propagatedHeaders() ?? null,
    });
    if ('busy' in opened) throw new AppException(opened.busy === 'installed' ? 'IdempotencyKeyReused' : 'IdempotencyRequestInProgress');

    try {
      const resources = await this.provisioning
        .provision({ id: pluginConnectionID, generation: opened.generation, tenantID: scope.tenantID, kind: plugin.kind, providerRequest })
        .catch((error: unknown) => {
          throw new AppException('BadGateway', { cause: error });
        });
      const token = generateSecretToken();
      const outcome = await this.commit(scope, { pluginConnectionID, pluginID, plugin, token, resources, claimID });
      if (outcome === 'already-installed') throw new AppException('PluginAlreadyInstalled');
      if (outcome === 'claim-lost') throw new AppException('InternalServiceTimeout');
      // Best effort (it never throws): a "no such connection" entry cached before the commit lapses on its own.
      await this.credentials.forgetUnknownConnection(pluginConnectionID);
      return { pluginConnectionID, pluginConnectionToken: token, pluginID, kind: plugin.kind };
    } catch (error) {
      await this.handOver(pluginConnectionID, claimID, error);
      throw error;
    }
  }

  /**
   * Whatever the providers made is the reconciler's to release. After a
   * provider failure the client is likely to retry under its key: the intent
   * waits one lease for that retry, which then reuses what the provider made.
   * Otherwise the reconciler takes it at once. If even this fails, the claim
   * lapses with its lease.
   */
  private async handOver(pluginConnectionID: string, claimID: string, error: unknown): Promise<void> {
    const providerFailed = error instanceof AppException && error.key === 'BadGateway';
    await this.intents.handOver(pluginConnectionID, claimID, providerFailed ? this.leaseSeconds : 0).catch(() => undefined);
    if (!providerFailed) this.reconciler.nudge();
  }

  /** The connection, its audit record and event, and the intent's close, in one transaction. */
  private commit(
    scope: TenantScope,
    install: { pluginConnectionID: string; pluginID: string; plugin: InstallTarget; token: string; resources: ProvisionedResources; claimID: string },
  ): Promise<'inserted' | 'already-installed' | 'claim-lost'> {
    const { pluginConnectionID, pluginID, plugin, resources } = install;
    return this.installs.transaction(async (runner) => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      const inserted = await this.installs.insert(
        scope,
        {
          pluginConnectionID,
          pluginID,
          kind: plugin.kind,
          tokenHash: hashSecretToken(install.token),
          subscriptionItemID: resources.subscriptionItemID,
          vmID: resources.vmID,
        },
        runner,
      );
      if (inserted === 'already-installed') return inserted;
      // An install that outlived its lease lost the intent to the reconciler: it must not commit over it.
      if (!(await this.intents.markInstalled(pluginConnectionID, install.claimID, runner))) throw new ClaimLost();
      await this.audit.record(runner, scope, {
        action: 'pluginConnection.installed',
        targetID: pluginConnectionID,
        summary: { pluginID, kind: plugin.kind, billing: resources.subscriptionItemID ? 'subscribed' : 'none', vm: resources.vmID ? 'created' : 'none' },
      });
      await this.webhooks.emit(runner, scope, {
        type: 'pluginConnection.installed',
        subject: `pluginConnection:${pluginConnectionID}`,
        data: { pluginConnectionID, pluginID, pluginName: plugin.pluginName },
      });
      return inserted;
    }).catch((error: unknown) => {
      if (error instanceof ClaimLost) return 'claim-lost' as const;
      throw error;
    });
  }
}

/** Rolls the connection's transaction back when the intent's claim was lost. */
class ClaimLost extends Error {}

/** The exact parameters of the provider create, kept on the intent for the reconciler's replay. */
function providerRequestOf(plugin: InstallTarget, pluginID: string): ProviderRequest {
  if (plugin.kind === 'paid') {
    if (!plugin.subscription) throw new AppException('TenantBillingNotConfigured');
    if (!plugin.price) throw new Error(`paid plugin ${pluginID} has no billing price`);
    // eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows (ProviderRequest)
    return { subscriptionId: plugin.subscription, priceId: plugin.price };
  }
  if (plugin.kind === 'hosted') return { image: plugin.image ?? 'default' };
  return {};
}
