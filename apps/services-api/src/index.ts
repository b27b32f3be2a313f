/** What other projects (the end-to-end suite, tools) may use of services-api. */
export { createServicesApiApp, describeServicesApi, SERVICES_API_VERSION } from './bootstrap';
export { AuditRetention } from './audit-events/audit-retention';
export { ServicesApiConfig } from './config';
export { WebhookSigningSecrets } from './webhooks/signing-secrets';
export { setAsidePgBoss10Schema } from './jobs/pg-boss-upgrade.repository';
export { PG_BOSS, registerWorker } from './jobs/pg-boss';
export type { JobsSettings } from './jobs/pg-boss';
export { WebhookDeliveryRetention } from './webhooks/delivery-engine/webhook-delivery-retention';
export { WebhookDeliveryEngine } from './webhooks/delivery-engine/webhook-delivery-engine';
// The list use cases and their repositories, so benchmarks can run the exact SQL of an operation bare.
export { ContactSessionsRepository } from './conversations/contacts/sessions/contact-sessions.repository';
export { ListContactSessionsUseCase } from './conversations/contacts/sessions/list-contact-sessions.use-case';
export { NotificationCountsRepository } from './conversations/notifications/notification-counts.repository';
export { ListShortcutsUseCase } from './conversations/shortcuts/list-shortcuts.use-case';
export { ShortcutsRepository } from './conversations/shortcuts/shortcuts.repository';
/** The list's SQL, for the benchmark's EXPLAIN output. */
export { CampaignModelsListRepository } from './campaign-models/models/campaign-models-list.repository';
// The conversation use cases and repositories, so the benchmark can run a message's exact SQL bare and time a fan-out.
export { ConversationEvents } from './conversations/conversation-events';
export type { ConversationsSettings } from './conversations/conversations-settings';
export { InboxesRepository } from './conversations/inboxes/inboxes.repository';
export { MessagesRepository } from './conversations/messages/messages.repository';
export { PostInboundMessageUseCase } from './conversations/messages/post-inbound-message.use-case';
export { PostReplyUseCase } from './conversations/messages/post-reply.use-case';
export { FanOutNotificationsUseCase } from './conversations/notifications/fan-out-notifications.use-case';
export { NotificationCountEvents } from './conversations/notifications/notification-count-events';
export { NotificationFanoutsRepository } from './conversations/notifications/notification-fanouts.repository';
export { NotificationFanoutWorker } from './conversations/notifications/notification-fanout.worker';
export { NotificationMailsRepository } from './conversations/notifications/mails/delivery/notification-mails.repository';
export { SessionsRepository } from './conversations/sessions/sessions.repository';
// Search and the inbox queue, so the benchmark can run their exact SQL at size.
export { PostgresSearch } from './conversations/search/postgres-search.repository';
export { InboxSessionsRepository } from './conversations/inbox-sessions/inbox-sessions.repository';
export { RoutingRepository } from './conversations/routing/routing.repository';
export { RoutingRequests } from './conversations/routing/routing-requests';
export { RoutingWorker } from './conversations/routing/routing.worker';
