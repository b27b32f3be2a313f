import type { AttemptRow, DeliveryRow } from './webhook-deliveries.repository';
import type { WebhookDeliveryAttemptDto, WebhookDeliveryDto } from './webhook-delivery.dto';

export function deliveryView(row: DeliveryRow): WebhookDeliveryDto {
  return {
    webhookDeliveryID: row.id,
    eventID: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    lastStatusCode: row.last_status_code,
    nextAttemptAt: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

export function attemptView(row: AttemptRow): WebhookDeliveryAttemptDto {
  return {
    attemptedAt: row.attempted_at.toISOString(),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    succeeded: row.succeeded,
  };
}
