import { Inject, Injectable } from '@nestjs/common';
import { Clock, DueWorkLoop } from '@platform/scheduling';
import { trustedTenantScope } from '@platform/auth';
import { continueJobFrom, SpanKind } from '@platform/observability';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookSigningSecrets } from '../signing-secrets';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics';
import { leaseSeconds, retryDelayMs, WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';
import { WebhookFanOut } from './webhook-fan-out';
import { signedHeaders } from './webhook-request';
import { AttemptOutcome, WebhookSender } from './webhook-sender';

/**
 * Delivers webhooks, at least once each: one loop over two outboxes.
 * A round fans new events out into deliveries (WebhookFanOut), then claims
 * the most overdue attemptable delivery straight from `webhook_deliveries`
 * (WebhookDeliveriesRepository.claimDue), signs and sends it, and records
 * the outcome.
 *
 * The delivery row is the only schedule: `next_attempt_at` says when it is
 * due, `leased_until` that an attempt holds it. The claim's query is the one
 * definition of "attemptable" (ATTEMPTABLE): pending and due, the endpoint
 * enabled, no attempt of that endpoint in flight, no older pending delivery
 * of the same subject. So a retry is a row whose `next_attempt_at` moved, an
 * endpoint's next delivery follows as soon as its attempt in flight ends, a
 * re-enabled endpoint's deliveries are due at the next round, and a worker
 * that died mid-attempt leaves a lease that lapses, after which the same
 * query finds the delivery again (same webhook-id).
 *
 * Why not a job queue (pg-boss) with a job per attempt: a job would repeat
 * what the row already says (when it is due), so every outcome would have to
 * enqueue the retry and the endpoint's next delivery by hand, and a sweep
 * would have to repair jobs lost or run too early. The rows are the truth,
 * and a claim that reads them needs nothing kept in step. The same shape as
 * core-tenants' billing cancellations (BillingCancellationWorker).
 *
 * New events are found by the poll alone (docs/webhooks.md): every app
 * appends to the outbox, most from other processes, so the poll is what
 * bounds an event's wait whoever emitted it; a re-send or a test event,
 * due at once, nudges.
 *
 * Attempts run WEBHOOK_DELIVERY_CONCURRENCY at a time per replica (the
 * loop's lanes), never two for one endpoint across replicas, each within
 * WEBHOOK_DELIVERY_TIMEOUT_MS: a receiver that hangs holds one lane for that
 * long and no more, and other tenants' deliveries go on through the others.
 */
@Injectable()
export class WebhookDeliveryEngine extends DueWorkLoop {
  /** One lane fans out at a time; the others go straight to claiming. */
  private fanningOut = false;

  constructor(
    private readonly fanOut: WebhookFanOut,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSigningSecrets,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookDeliveryMetrics,
    private readonly clock: Clock,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {
    super(settings.dispatchPollMs, 'webhook delivery', settings.concurrency);
  }

  protected async attemptDue(): Promise<boolean> {
    if (await this.fanOutOnce()) return true;
    const { found, claimed } = await this.deliveries.claimDue(leaseSeconds(this.settings));
    // Found but not claimed: another replica took that endpoint between the two statements; look again.
    if (!claimed) return found;
    this.moreDue();
    await continueJobFrom(claimed.headers, { name: 'webhook delivery', kind: SpanKind.CONSUMER }, () => this.attempt(claimed));
    return true;
  }

  /** Fans out one batch of events unless another lane is; true when the batch was full (more may be waiting). */
  private async fanOutOnce(): Promise<boolean> {
    if (this.fanningOut) return false;
    this.fanningOut = true;
    try {
      const { full, deliveries } = await this.fanOut.batch();
      if (deliveries > 0) this.moreDue();
      return full;
    } finally {
      this.fanningOut = false;
    }
  }

  /** Sends the claimed delivery and records what came of it. */
  private async attempt(claimed: ClaimedDelivery): Promise<void> {
    const outcome = await this.send(claimed);
    await this.record(claimed, outcome);
  }

  private async send(claimed: ClaimedDelivery): Promise<AttemptOutcome> {
    const secrets = [claimed.secret, claimed.previousSecret]
      .filter((sealed): sealed is string => sealed !== null)
      .map((sealed) => this.secrets.open(claimed.endpointID, sealed))
      .filter((secret): secret is string => secret !== undefined);
    // Never sent unsigned: a secret no configured key opens (WEBHOOK_SECRETS_KEY changed without _PREVIOUS) is a failed attempt.
    if (secrets.length === 0) return { succeeded: false, statusCode: null, error: 'signing secret unreadable', durationMs: 0 };
    const { type, timestamp, data } = claimed.payload;
    const body = JSON.stringify({ type, timestamp, data });
    return this.sender.post(claimed.url, signedHeaders(claimed.eventID, body, secrets, this.clock.now()), body);
  }

  /**
   * The attempt, the delivery's new state (succeeded; or failed, with its next
   * attempt on the jittered schedule or none left) and the endpoint's run of
   * failures, in one transaction. A crash before it commits leaves the lease
   * to lapse and the delivery to be attempted again.
   */
  private async record(claimed: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    const attempt = claimed.attemptCount + 1;
    // The delivery's own row says whose it is: the scope of a background attempt comes from it, not from a request.
    const scope = trustedTenantScope(claimed.tenantID);
    let result: 'succeeded' | 'retrying' | 'failed' = 'succeeded';
    await this.deliveries.transaction(async (runner) => {
      await this.deliveries.recordAttempt(runner, claimed.webhookDeliveryID, outcome);
      if (outcome.succeeded) {
        await this.deliveries.succeed(runner, claimed.webhookDeliveryID, outcome.statusCode!);
        await this.endpoints.deliverySucceeded(runner, scope, claimed.endpointID);
        return;
      }
      const nextAttemptAt = await this.deliveries.fail(runner, claimed.webhookDeliveryID, outcome.statusCode, outcome.error!, retryDelayMs(this.settings, attempt));
      result = nextAttemptAt ? 'retrying' : 'failed';
      const failing = await this.endpoints.deliveryFailed(runner, scope, claimed.endpointID, this.settings.disableAfterHours);
      if (failing?.overdue) {
        const lastAnswer = outcome.statusCode === null ? outcome.error : String(outcome.statusCode);
        await this.endpoints.disable(runner, scope, claimed.endpointID, `failing since ${failing.failingSince.toISOString()}: last answer ${lastAnswer}`);
      }
    });
    this.metrics.attemptEnded(result);
  }
}
