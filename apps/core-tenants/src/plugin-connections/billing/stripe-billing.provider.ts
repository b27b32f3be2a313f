import type Stripe from 'stripe';
import { BillingProvider, BillingProviderError } from './billing.provider';

export interface StripeSettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

type StripeSdk = typeof Stripe;
let sdk: StripeSdk | undefined;

/**
 * The SDK, loaded on the first billing call: about 220 modules (1.1 MB) that
 * cost start-up time and heap on every replica, while only installs of paid
 * plugins and the cancellation worker (when it has work) use them.
 */
function stripeSdk(): StripeSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
  sdk ??= require('stripe') as StripeSdk;
  return sdk;
}

/**
 * Billing through the official `stripe` SDK. The SDK's own retries are off:
 * creation happens inside an install request (bounded by its timeout) and
 * cancellation is retried by the durable cancellation worker.
 */
export class StripeBillingProvider extends BillingProvider {
  private client: Stripe | undefined;

  constructor(private readonly settings: StripeSettings) {
    super();
  }

  private get stripe(): Stripe {
    this.client ??= this.connect();
    return this.client;
  }

  private connect(): Stripe {
    const settings = this.settings;
    const url = new URL(settings.baseUrl);
    return new (stripeSdk())(settings.apiKey, {
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
      timeout: settings.timeoutMs,
      maxNetworkRetries: 0,
      telemetry: false,
    });
  }

  async createSubscriptionItem(input: { subscriptionID: string; priceID: string; idempotencyKey: string }): Promise<string> {
    try {
      const item = await this.stripe.subscriptionItems.create(
        { subscription: input.subscriptionID, price: input.priceID, quantity: 1 },
        { idempotencyKey: input.idempotencyKey },
      );
      return item.id;
    } catch (error) {
      throw new BillingProviderError('creating the subscription item failed', { cause: error, refused: isRefusal(error) });
    }
  }

  async cancelSubscriptionItem(subscriptionItemID: string): Promise<'canceled' | 'already-gone'> {
    try {
      await this.stripe.subscriptionItems.del(subscriptionItemID);
      return 'canceled';
    } catch (error) {
      if (sdk !== undefined && error instanceof sdk.errors.StripeInvalidRequestError && error.code === 'resource_missing') return 'already-gone';
      throw new BillingProviderError('canceling the subscription item failed', { cause: error });
    }
  }
}

/** A 4xx other than 409 (a concurrent request under the same key) and 429: nothing was made. */
function isRefusal(error: unknown): boolean {
  if (sdk === undefined || !(error instanceof sdk.errors.StripeError)) return false;
  const status = error.statusCode;
  return status !== undefined && status >= 400 && status < 500 && status !== 409 && status !== 429;
}
