import { randomBytes } from 'node:crypto';
import { StubServer } from './stub-server';

interface SubscriptionItem {
  id: string;
  subscription: string;
  price: string;
  quantity: number;
}

/**
 * The subset of Stripe's API our billing adapter uses (docs/external-providers.md, Billing):
 * `POST /v1/subscription_items` (form-encoded, Idempotency-Key honoured) and
 * `DELETE /v1/subscription_items/{id}` (404 `resource_missing` once gone).
 */
export class BillingStub extends StubServer {
  readonly items = new Map<string, SubscriptionItem>();
  /** Every item ever created, by id (canceled ones included). */
  readonly created = new Map<string, SubscriptionItem>();
  private readonly byIdempotencyKey = new Map<string, SubscriptionItem>();

  constructor() {
    super((request, body, url) => {
      const deleteMatch = /^\/v1\/subscription_items\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'POST' && url.pathname === '/v1/subscription_items') {
        const form = new URLSearchParams(body);
        const key = request.headers['idempotency-key'];
        const replay = typeof key === 'string' ? this.byIdempotencyKey.get(key) : undefined;
        const item = replay ?? {
          id: `si_${randomBytes(7).toString('hex')}`,
          subscription: form.get('subscription') ?? '',
          price: form.get('price') ?? '',
          quantity: Number(form.get('quantity') ?? '1'),
        };
        if (!replay) {
          this.items.set(item.id, item);
          this.created.set(item.id, item);
          if (typeof key === 'string') this.byIdempotencyKey.set(key, item);
        }
        return { status: 200, body: this.render(item) };
      }
      if (request.method === 'DELETE' && deleteMatch) {
        const id = decodeURIComponent(deleteMatch[1]);
        if (!this.items.delete(id)) {
          return {
            status: 404,
            body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription item: '${id}'`, param: 'id' } },
          };
        }
        return { status: 200, body: { id, object: 'subscription_item', deleted: true } };
      }
      return undefined;
    });
  }

  /** Seeds an existing item (as if created earlier). */
  addItem(id: string, subscription = 'sub_demo', price = 'price_demo'): void {
    this.items.set(id, { id, subscription, price, quantity: 1 });
  }

  /** Successful cancellations of one item. */
  successfulCancellations(id: string): number {
    return this.calls.filter((call) => call.method === 'DELETE' && call.path === `/v1/subscription_items/${id}` && call.status === 200).length;
  }

  private render(item: SubscriptionItem) {
    return { id: item.id, object: 'subscription_item', subscription: item.subscription, price: { id: item.price, object: 'price' }, quantity: item.quantity };
  }
}
