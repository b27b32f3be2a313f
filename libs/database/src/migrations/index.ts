import { Foundation1763700000000 } from './1763700000000-foundation';
import { CampaignModels1763800000000 } from './1763800000000-campaign-models';
import { ShortcutsSessionsNotifications1763900000000 } from './1763900000000-shortcuts-sessions-notifications';
import { OperatorInvitations1764000000000 } from './1764000000000-operator-invitations';
import { HelpdeskDomains1764100000000 } from './1764100000000-helpdesk-domains';
import { PluginConnectionLifecycle1764200000000 } from './1764200000000-plugin-connection-lifecycle';
import { ProcessingTraceProviders1764300000000 } from './1764300000000-processing-trace-providers';
import { BillingCancellationHeaders1764400000000 } from './1764400000000-billing-cancellation-headers';
import { PluginConnectionRemovalClaims1764410000000 } from './1764410000000-plugin-connection-removal-claims';
import { IdempotencyKeys1764500000000 } from './1764500000000-idempotency-keys';
import { AuditEvents1764600000000 } from './1764600000000-audit-events';
import { InstallIntentsAndRestrict1764700000000 } from './1764700000000-install-intents-and-restrict';
import { HelpdeskPendingDomainExpiry1764730000000 } from './1764730000000-helpdesk-pending-domain-expiry';
import { Webhooks1764800000000 } from './1764800000000-webhooks';
import { WebhookDeliveryLeases1764850000000 } from './1764850000000-webhook-delivery-leases';
import { HandledTransportRequests1764880000000 } from './1764880000000-handled-transport-requests';
import { ConversationsInMotion1764900000000 } from './1764900000000-conversations-in-motion';
import { WebhookEventsStreamed1765000000000 } from './1765000000000-webhook-events-streamed';
import { OutboxConsumers1765100000000 } from './1765100000000-outbox-consumers';
import { ConversationSearch1765230000000 } from './1765230000000-conversation-search';
import { InboxSessionQueue1765250000000 } from './1765250000000-inbox-session-queue';
import { ContactDirectory1765260000000 } from './1765260000000-contact-directory';
import { OperatorPresence1765300000000 } from './1765300000000-operator-presence';
import { OperatorSocketLeases1765310000000 } from './1765310000000-operator-socket-leases';
import { NotificationMails1765340000000 } from './1765340000000-notification-mails';
import { SessionLastMessageIndex1765350000000 } from './1765350000000-session-last-message-index';
import { DropDuplicateContactsIndex1765360000000 } from './1765360000000-drop-duplicate-contacts-index';
import { InboxRouting1765320000000 } from './1765320000000-inbox-routing';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [
  Foundation1763700000000,
  CampaignModels1763800000000,
  ShortcutsSessionsNotifications1763900000000,
  OperatorInvitations1764000000000,
  HelpdeskDomains1764100000000,
  PluginConnectionLifecycle1764200000000,
  ProcessingTraceProviders1764300000000,
  BillingCancellationHeaders1764400000000,
  PluginConnectionRemovalClaims1764410000000,
  IdempotencyKeys1764500000000,
  AuditEvents1764600000000,
  InstallIntentsAndRestrict1764700000000,
  HelpdeskPendingDomainExpiry1764730000000,
  Webhooks1764800000000,
  WebhookDeliveryLeases1764850000000,
  HandledTransportRequests1764880000000,
  ConversationsInMotion1764900000000,
  WebhookEventsStreamed1765000000000,
  OutboxConsumers1765100000000,
  ConversationSearch1765230000000,
  InboxSessionQueue1765250000000,
  ContactDirectory1765260000000,
  OperatorPresence1765300000000,
  OperatorSocketLeases1765310000000,
  NotificationMails1765340000000,
  InboxRouting1765320000000,
  SessionLastMessageIndex1765350000000,
  DropDuplicateContactsIndex1765360000000,
];
