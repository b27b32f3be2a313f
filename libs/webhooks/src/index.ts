export { outboxCommittedChannel, OutboxNudges } from './outbox-nudges';
export { isRealtimeEventType, REALTIME_EVENT_TYPES } from './realtime-event-types';
export type { RealtimeEventType } from './realtime-event-types';
export * from './webhook-event-payloads';
export { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPE_NAMES, WEBHOOK_EVENT_TYPES } from './webhook-event-types';
export type { WebhookEventType } from './webhook-event-types';
export { WebhookEvents } from './webhook-events';
export type { WebhookEvent } from './webhook-events';
export { WebhooksModule } from './webhooks.module';
