/** What other projects (the end-to-end suite, tools) may use of services-api. */
export { createServicesApiApp, describeServicesApi, SERVICES_API_VERSION } from './bootstrap';
export { AuditRetention } from './audit-events/audit-retention';
export { ServicesApiConfig } from './config';
export { WebhookSigningSecrets } from './webhooks/signing-secrets';
export { setAsidePgBoss10Schema } from './jobs/pg-boss-10-jobs.repository';
export { PG_BOSS, registerWorker } from './jobs/pg-boss';
export type { JobsSettings } from './jobs/pg-boss';
export { WebhookDeliveryRetention } from './webhooks/delivery-engine/webhook-delivery-retention';
export { WebhookDeliveryEngine } from './webhooks/delivery-engine/webhook-delivery-engine';
// The list use cases and their repositories, so benchmarks can run the exact SQL of an operation bare.
export { ContactSessionsRepository } from './contact-sessions/contact-sessions.repository';
export { ListContactSessionsUseCase } from './contact-sessions/list-contact-sessions.use-case';
export { NotificationCountsRepository } from './notifications/notification-counts.repository';
export { ListShortcutsUseCase } from './shortcuts/list-shortcuts.use-case';
export { ShortcutsRepository } from './shortcuts/shortcuts.repository';
/** The list's SQL, for the benchmark's EXPLAIN output. */
export { CampaignModelsListRepository } from './campaign-models/models/campaign-models-list.repository';
