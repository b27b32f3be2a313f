import { Injectable } from '@nestjs/common';
import type { PluginConnectionKind } from '@platform/database';
import { BillingProvider } from './billing/billing.provider';
import { providerIdempotencyKey } from './install-keys';
import type { ProviderRequest } from './install-intents.repository';
import { VmProvider } from './vms/vm.provider';

/** What an install intent names at the providers. */
export interface IntentAtProviders {
  id: string;
  generation: number;
  tenantID: string;
  kind: PluginConnectionKind;
  providerRequest: ProviderRequest;
}

/** Provider resources made for an intent. */
export interface ProvisionedResources {
  subscriptionItemID: string | null;
  vmID: string | null;
}

/**
 * The provider create of an install intent, under the key derived from it:
 * the install calls it first, and the reconciler calls it again to learn
 * what a crashed install made (the provider answers the same resource, or
 * makes it now, so it is released either way). One place, so both always
 * send the same parameters under the same key.
 */
@Injectable()
export class InstallProvisioning {
  constructor(
    private readonly billing: BillingProvider,
    private readonly vms: VmProvider,
  ) {}

  async provision(intent: IntentAtProviders): Promise<ProvisionedResources> {
    const idempotencyKey = providerIdempotencyKey(intent.id, intent.generation);
    const request = intent.providerRequest;
    if (intent.kind === 'paid' && 'priceId' in request) {
      const subscriptionItemID = await this.billing.createSubscriptionItem({ subscriptionID: request.subscriptionId, priceID: request.priceId, idempotencyKey });
      return { subscriptionItemID, vmID: null };
    }
    if (intent.kind === 'hosted' && 'image' in request) {
      const vmID = await this.vms.createVm({ image: request.image, tenantID: intent.tenantID, pluginConnectionID: intent.id, idempotencyKey });
      return { subscriptionItemID: null, vmID };
    }
    return { subscriptionItemID: null, vmID: null };
  }
}
