import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CAMPAIGN_MODEL_STATUSES, HELPDESK_DOMAIN_STATUSES, MEMBERSHIP_ROLES } from '@platform/database';
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
  'webhook.test': WebhookTestData,
};
