export * from './webhook-event-payloads';
export { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPE_NAMES, WEBHOOK_EVENT_TYPES } from './webhook-event-types';
export type { WebhookEventType } from './webhook-event-types';
export { WebhookEvents } from './webhook-events';
export type { WebhookEvent } from './webhook-events';
export { WebhookEventsRepository } from './webhook-events.repository';
export type { NewWebhookEvent, NewWebhookEvents, UndispatchedWebhookEvent, UnstreamedWebhookEvent } from './webhook-events.repository';
export { WebhooksModule } from './webhooks.module';
