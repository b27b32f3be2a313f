/** The billing provider, as core-tenants needs it: subscription items of paid plugins. */
export abstract class BillingProvider {
  /**
   * Adds a plugin's price to a tenant's subscription. The idempotency key makes
   * a retried call return the same item instead of adding a second one.
   */
  abstract createSubscriptionItem(input: { subscriptionID: string; priceID: string; idempotencyKey: string }): Promise<string>;

  /** Cancels an item so billing stops; an item already gone counts as done. */
  abstract cancelSubscriptionItem(subscriptionItemID: string): Promise<'canceled' | 'already-gone'>;
}

/** The provider could not do what was asked (down, slow, or it refused). */
export class BillingProviderError extends Error {
  /**
   * The provider answered a definitive refusal (a 4xx other than 409 and 429):
   * it made nothing, and asking again under the same idempotency key gets the
   * same refusal. A timeout or a 5xx may have made the resource.
   */
  readonly refused: boolean;

  constructor(message: string, options?: { cause?: unknown; refused?: boolean }) {
    super(message, options);
    this.name = 'BillingProviderError';
    this.refused = options?.refused ?? false;
  }
}
