import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConversationMessageDto, ConversationSessionDto, DELIVERY_STATUSES, NOTIFICATION_COUNTS_SCHEMA } from '@platform/conversations';
import type { NotificationCounts } from '@platform/conversations';
import { CAMPAIGN_MODEL_STATUSES, HELPDESK_DOMAIN_STATUSES, MEMBERSHIP_ROLES, PRESENCE_STATUSES } from '@platform/database';
import type { PresenceStatus } from '@platform/database';
import type { WebhookEventType } from './webhook-event-types';

/**
 * The `data` of each event type, version 1. These classes are the payload
 * schemas of the OpenAPI documents and the types the emitters fill in, so a
 * payload cannot drift from its documentation. Ids are canonical (lower-case)
 * UUIDs; times are ISO 8601.
 */

export class CampaignModelStatusChangedData {
  @ApiProperty({ format: 'uuid' }) campaignModelID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CAMPAIGN_MODEL_STATUSES }) previousStatus!: string;
  @ApiProperty({ enum: CAMPAIGN_MODEL_STATUSES }) status!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: "The provider's reason, when it gave one (a rejection)." })
  reason!: string | null;
}

export class PluginConnectionInstalledData {
  @ApiProperty({ format: 'uuid' }) pluginConnectionID!: string;
  @ApiProperty({ format: 'uuid' }) pluginID!: string;
  @ApiProperty() pluginName!: string;
}

export class PluginConnectionRemovedData {
  @ApiProperty({ format: 'uuid' }) pluginConnectionID!: string;
  @ApiProperty({ format: 'uuid' }) pluginID!: string;
  @ApiProperty() pluginName!: string;
}

export class HelpdeskDomainAddedData {
  @ApiProperty({ format: 'uuid' }) helpdeskDomainID!: string;
  @ApiProperty({ example: 'help.example.com' }) domain!: string;
  @ApiProperty({ enum: HELPDESK_DOMAIN_STATUSES }) status!: string;
}

export class HelpdeskDomainStatusChangedData {
  @ApiProperty({ format: 'uuid' }) helpdeskDomainID!: string;
  @ApiProperty({ example: 'help.example.com' }) domain!: string;
  @ApiProperty({ enum: HELPDESK_DOMAIN_STATUSES }) previousStatus!: string;
  @ApiProperty({ enum: HELPDESK_DOMAIN_STATUSES }) status!: string;
}

export class HelpdeskDomainRemovedData {
  @ApiProperty({ format: 'uuid' }) helpdeskDomainID!: string;
  @ApiProperty({ example: 'help.example.com' }) domain!: string;
}

export class InvitationAcceptedData {
  @ApiProperty({ format: 'uuid' }) invitationID!: string;
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES }) role!: string;
}

export class MemberRoleChangedData {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES }) previousRole!: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES }) role!: string;
}

export class MemberRemovedData {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES, description: 'The role the member had.' }) role!: string;
}

export class WebhookTestData {
  @ApiProperty({ format: 'uuid' }) webhookEndpointID!: string;
  @ApiProperty({ example: 'A test event sent on request.' }) message!: string;
}

/**
 * What every session and message event carries (docs/conversations.md#events):
 * the ids a consumer routes by and the session's visibility as of the
 * commit that emitted it (`operatorMaySeeSession` of `@platform/conversations`
 * decides from `listed`, `operatorID` and `participantIDs` alone), so the
 * real-time gateway filters without a database query.
 */
export class SessionEventData {
  @ApiProperty({ format: 'uuid' }) sessionID!: string;
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: "The inbox's channel plugin connection" }) pluginConnectionID!: string | null;
  @ApiProperty({ description: 'sessionListed as of the commit' }) listed!: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The assignee as of the commit; null while queued' }) operatorID!: string | null;
  @ApiProperty({ type: [String], description: 'operatorParticipantsIDs as of the commit' }) participantIDs!: string[];
  @ApiProperty({ type: ConversationSessionDto, description: 'The session as GET .../sessions/{sessionID} shows it after the change' })
  session!: ConversationSessionDto;
}

export class SessionOpenedData extends SessionEventData {}

export class SessionAssignedData extends SessionEventData {
  @ApiProperty({ format: 'uuid', description: 'Who assigned it: the assignee when they took it, else the owner' }) assignedByOperatorID!: string;
}

export class SessionTransferredData extends SessionEventData {
  @ApiProperty({ format: 'uuid' }) previousOperatorID!: string;
  @ApiProperty({ format: 'uuid' }) transferredByOperatorID!: string;
}

export class SessionParticipantJoinedData extends SessionEventData {
  @ApiProperty({ format: 'uuid' }) participantID!: string;
}

export class SessionClosedData extends SessionEventData {
  @ApiProperty({ format: 'uuid' }) closedByOperatorID!: string;
}

export class MessageCreatedData extends SessionEventData {
  @ApiProperty({ type: ConversationMessageDto, description: 'The message as the session messages page shows it' }) message!: ConversationMessageDto;
}

export class MessageStatusChangedData extends SessionEventData {
  @ApiProperty({ type: ConversationMessageDto }) message!: ConversationMessageDto;
  @ApiProperty({ enum: DELIVERY_STATUSES }) previousStatus!: string;
}

export class NotificationsReadData {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ format: 'uuid' }) sessionID!: string;
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty({ description: 'Notifications of the session this read marked read (0 when none was unread)' }) markedRead!: number;
}

/**
 * An operator's unread counts changed: `counts` is exactly what operation 14
 * answers them as of the change's commit (the same object, one schema).
 */
export class NotificationCountsData {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ ...NOTIFICATION_COUNTS_SCHEMA, description: "What operation 14 answers the operator as of the change's commit", example: { '9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d': 3, mention: 1 } })
  counts!: NotificationCounts;
}

/**
 * An operator's status in effect changed (docs/presence.md#events): by their
 * choice over REST, or as their sockets connected, fell idle or lapsed.
 */
export class OperatorPresenceChangedData {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status in effect now' }) status!: PresenceStatus;
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status the operator chose' }) chosenStatus!: PresenceStatus;
  @ApiProperty({ format: 'date-time', description: 'When the status in effect changed' }) changedAt!: string;
}

/** Each event type's `data`: what `WebhookEvents.emit` accepts for it. */
export interface WebhookEventData {
  'campaignModel.statusChanged': CampaignModelStatusChangedData;
  'pluginConnection.installed': PluginConnectionInstalledData;
  'pluginConnection.removed': PluginConnectionRemovedData;
  'helpdeskDomain.added': HelpdeskDomainAddedData;
  'helpdeskDomain.statusChanged': HelpdeskDomainStatusChangedData;
  'helpdeskDomain.removed': HelpdeskDomainRemovedData;
  'invitation.accepted': InvitationAcceptedData;
  'member.roleChanged': MemberRoleChangedData;
  'member.removed': MemberRemovedData;
  'message.created': MessageCreatedData;
  'message.statusChanged': MessageStatusChangedData;
  'session.opened': SessionOpenedData;
  'session.assigned': SessionAssignedData;
  'session.transferred': SessionTransferredData;
  'session.participantJoined': SessionParticipantJoinedData;
  'session.closed': SessionClosedData;
  'notifications.read': NotificationsReadData;
  'notifications.counts': NotificationCountsData;
  'operator.presenceChanged': OperatorPresenceChangedData;
  'webhook.test': WebhookTestData;
}

/** The payload class of each type, for the OpenAPI documents. */
export const WEBHOOK_EVENT_PAYLOADS: { [Type in WebhookEventType]: new () => WebhookEventData[Type] } = {
  'campaignModel.statusChanged': CampaignModelStatusChangedData,
  'pluginConnection.installed': PluginConnectionInstalledData,
  'pluginConnection.removed': PluginConnectionRemovedData,
  'helpdeskDomain.added': HelpdeskDomainAddedData,
  'helpdeskDomain.statusChanged': HelpdeskDomainStatusChangedData,
  'helpdeskDomain.removed': HelpdeskDomainRemovedData,
  'invitation.accepted': InvitationAcceptedData,
  'member.roleChanged': MemberRoleChangedData,
  'member.removed': MemberRemovedData,
  'message.created': MessageCreatedData,
  'message.statusChanged': MessageStatusChangedData,
  'session.opened': SessionOpenedData,
  'session.assigned': SessionAssignedData,
  'session.transferred': SessionTransferredData,
  'session.participantJoined': SessionParticipantJoinedData,
  'session.closed': SessionClosedData,
  'notifications.read': NotificationsReadData,
  'notifications.counts': NotificationCountsData,
  'operator.presenceChanged': OperatorPresenceChangedData,
  'webhook.test': WebhookTestData,
};
