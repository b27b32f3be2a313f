export { AUDIT_ACTOR_KINDS, AuditEventEntity } from './audit-event.entity';
export type { AuditActorKind } from './audit-event.entity';
export { BillingCancellationEntity } from './billing-cancellation.entity';
export { CampaignModelCountEntity } from './campaign-model-count.entity';
export { CAMPAIGN_MODEL_STATUSES, CampaignModelEntity } from './campaign-model.entity';
export type { CampaignModelStatus } from './campaign-model.entity';
export { CAMPAIGN_STATUSES, CampaignEntity } from './campaign.entity';
export type { CampaignStatus } from './campaign.entity';
export { ContactEntity } from './contact.entity';
export { HandledTransportRequestEntity } from './handled-transport-request.entity';
export { ContactHandleEntity } from './contact-handle.entity';
export { HelpCenterEntity } from './help-center.entity';
export { HELPDESK_DOMAIN_STATUSES, HelpdeskDomainEntity } from './helpdesk-domain.entity';
export type { HelpdeskDomainStatus } from './helpdesk-domain.entity';
export { InboxEntity } from './inbox.entity';
export { MEMBERSHIP_ROLES, MembershipEntity } from './membership.entity';
export type { MembershipRole } from './membership.entity';
export { MESSAGE_DELIVERY_STATUSES, MESSAGE_DIRECTIONS, MessageEntity } from './message.entity';
export type { MessageDeliveryStatus, MessageDirection } from './message.entity';
export { MESSAGING_CHANNEL_STATUSES, MESSAGING_CHANNELS, MessagingChannelEntity } from './messaging-channel.entity';
export type { MessagingChannel, MessagingChannelStatus } from './messaging-channel.entity';
export { NOTIFICATION_CATEGORIES, NotificationEntity } from './notification.entity';
export { NOTIFICATION_FANOUT_KINDS, NotificationFanoutEntity } from './notification-fanout.entity';
export type { NotificationFanoutKind } from './notification-fanout.entity';
export type { NotificationCategory } from './notification.entity';
export { OperatorInvitationEntity } from './operator-invitation.entity';
export { OperatorEntity } from './operator.entity';
export { INSTALL_INTENT_STATES, PluginConnectionInstallIntentEntity } from './plugin-connection-install-intent.entity';
export type { InstallIntentState } from './plugin-connection-install-intent.entity';
export { PLUGIN_CONNECTION_STATUSES, PluginConnectionEntity } from './plugin-connection.entity';
export type { PluginConnectionStatus } from './plugin-connection.entity';
export { PLUGIN_CONNECTION_KINDS, PluginEntity } from './plugin.entity';
export type { PluginConnectionKind } from './plugin.entity';
export { SessionSummaryEntity } from './session-summary.entity';
export { SessionEntity } from './session.entity';
export { SHORTCUT_SCOPES, ShortcutEntity } from './shortcut.entity';
export type { ShortcutContent, ShortcutScope } from './shortcut.entity';
export { TenantEntity } from './tenant.entity';
export {
  WEBHOOK_DELIVERY_STATUSES,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
} from './webhook.entities';
export type { WebhookDeliveryStatus } from './webhook.entities';
export { OutboxLossEntity, OutboxPendingEntity } from './outbox.entities';

import { AuditEventEntity } from './audit-event.entity';
import { BillingCancellationEntity } from './billing-cancellation.entity';
import { CampaignModelCountEntity } from './campaign-model-count.entity';
import { CampaignModelEntity } from './campaign-model.entity';
import { CampaignEntity } from './campaign.entity';
import { ContactEntity } from './contact.entity';
import { HandledTransportRequestEntity } from './handled-transport-request.entity';
import { ContactHandleEntity } from './contact-handle.entity';
import { HelpCenterEntity } from './help-center.entity';
import { HelpdeskDomainEntity } from './helpdesk-domain.entity';
import { InboxEntity } from './inbox.entity';
import { MembershipEntity } from './membership.entity';
import { MessageEntity } from './message.entity';
import { MessagingChannelEntity } from './messaging-channel.entity';
import { NotificationEntity } from './notification.entity';
import { NotificationFanoutEntity } from './notification-fanout.entity';
import { OperatorInvitationEntity } from './operator-invitation.entity';
import { OperatorEntity } from './operator.entity';
import { PluginConnectionInstallIntentEntity } from './plugin-connection-install-intent.entity';
import { PluginConnectionEntity } from './plugin-connection.entity';
import { PluginEntity } from './plugin.entity';
import { SessionSummaryEntity } from './session-summary.entity';
import { SessionEntity } from './session.entity';
import { ShortcutEntity } from './shortcut.entity';
import { TenantEntity } from './tenant.entity';
import { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity, WebhookEventEntity } from './webhook.entities';
import { OutboxLossEntity, OutboxPendingEntity } from './outbox.entities';

/** Every entity of the platform's database. */
export const ENTITIES = [
  TenantEntity,
  OperatorEntity,
  MembershipEntity,
  PluginEntity,
  PluginConnectionEntity,
  BillingCancellationEntity,
  PluginConnectionInstallIntentEntity,
  HelpCenterEntity,
  HelpdeskDomainEntity,
  OperatorInvitationEntity,
  ShortcutEntity,
  ContactEntity,
  ContactHandleEntity,
  InboxEntity,
  SessionEntity,
  MessageEntity,
  SessionSummaryEntity,
  NotificationEntity,
  NotificationFanoutEntity,
  MessagingChannelEntity,
  CampaignModelEntity,
  CampaignModelCountEntity,
  CampaignEntity,
  AuditEventEntity,
  WebhookEventEntity,
  OutboxPendingEntity,
  OutboxLossEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  HandledTransportRequestEntity,
];
