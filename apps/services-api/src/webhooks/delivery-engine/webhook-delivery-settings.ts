/** What the delivery side of webhooks runs by (ServicesApiConfig's WEBHOOK_* settings, docs/webhooks.md). */
export interface WebhookDeliverySettings {
  timeoutMs: number;
  /** Seconds before each retry; after the last, the delivery is `failed`. */
  retryDelaysSeconds: number[];
  disableAfterHours: number;
  maxPendingPerEndpoint: number;
  retentionDays: number;
  dispatchPollMs: number;
  concurrency: number;
}

export const WEBHOOK_DELIVERY_SETTINGS = Symbol('WEBHOOK_DELIVERY_SETTINGS');

/** How far each delay may stray (±), so retries of many deliveries failed together do not arrive together. */
const JITTER = 0.2;

/**
 * The delay before the retry that follows failed attempt number `attempt`
 * (1 for the first), with jitter; undefined when the schedule is spent and
 * the delivery fails. `random` is in [0, 1).
 */
export function retryDelayMs(settings: Pick<WebhookDeliverySettings, 'retryDelaysSeconds'>, attempt: number, random = Math.random()): number | undefined {
  const seconds = settings.retryDelaysSeconds[attempt - 1];
  if (seconds === undefined) return undefined;
  return Math.round(seconds * 1000 * (1 - JITTER + 2 * JITTER * random));
}

/**
 * How long a claimed attempt keeps its delivery: the attempt's time limit and
 * a margin for recording it. A worker that died mid-attempt loses the claim
 * when it lapses, and the delivery is attempted again.
 */
export function leaseSeconds(settings: Pick<WebhookDeliverySettings, 'timeoutMs'>): number {
  return Math.ceil(settings.timeoutMs / 1000) + 5;
}
