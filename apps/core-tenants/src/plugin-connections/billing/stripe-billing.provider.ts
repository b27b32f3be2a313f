import Stripe from 'stripe';
import { BillingProvider, BillingProviderError } from './billing.provider';

export interface StripeSettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/**
 * Billing through the official `stripe` SDK. The SDK's own retries are off:
 * creation happens inside an install request (bounded by its timeout) and
 * cancellation is retried by the durable cancellation worker.
 */
export class StripeBillingProvider extends BillingProvider {
  private readonly stripe: Stripe;

  constructor(settings: StripeSettings) {
    super();
    const url = new URL(settings.baseUrl);
    this.stripe = new Stripe(settings.apiKey, {
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
      timeout: settings.timeoutMs,
      maxNetworkRetries: 0,
      telemetry: false,
    });
  }

  async createSubscriptionItem(input: { subscriptionId: string; priceId: string; idempotencyKey: string }): Promise<string> {
    try {
      const item = await this.stripe.subscriptionItems.create(
        { subscription: input.subscriptionId, price: input.priceId, quantity: 1 },
        { idempotencyKey: input.idempotencyKey },
      );
      return item.id;
    } catch (error) {
      throw new BillingProviderError('creating the subscription item failed', { cause: error, refused: isRefusal(error) });
    }
  }

  async cancelSubscriptionItem(subscriptionItemId: string): Promise<'canceled' | 'already-gone'> {
    try {
      await this.stripe.subscriptionItems.del(subscriptionItemId);
      return 'canceled';
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return 'already-gone';
      throw new BillingProviderError('canceling the subscription item failed', { cause: error });
    }
  }
}

/** A 4xx other than 409 (a concurrent request under the same key) and 429: nothing was made. */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeError)) return false;
  const status = error.statusCode;
  return status !== undefined && status >= 400 && status < 500 && status !== 409 && status !== 429;
}
