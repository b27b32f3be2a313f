import type { WebhookDeliveryAttemptDto, WebhookDeliveryDto } from './webhook-delivery.dto';
import type { LoggedAttempt, LoggedDelivery } from './webhook-delivery-log.repository';

export function deliveryView(delivery: LoggedDelivery): WebhookDeliveryDto {
  return {
    webhookDeliveryID: delivery.webhookDeliveryID,
    eventID: delivery.eventID,
    eventType: delivery.eventType,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    lastStatusCode: delivery.lastStatusCode,
    nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
  };
}

export function attemptView(attempt: LoggedAttempt): WebhookDeliveryAttemptDto {
  return {
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
    succeeded: attempt.succeeded,
  };
}
