export { CAMPAIGN_MODEL_STATUSES, CampaignModelEntity } from './campaign-model.entity';
export type { CampaignModelStatus } from './campaign-model.entity';
export { CampaignModelCountEntity } from './campaign-model-count.entity';
export { CAMPAIGN_STATUSES, CampaignEntity } from './campaign.entity';
export type { CampaignStatus } from './campaign.entity';
export { MEMBERSHIP_ROLES, MembershipEntity } from './membership.entity';
export type { MembershipRole } from './membership.entity';
export { MESSAGING_CHANNEL_STATUSES, MESSAGING_CHANNELS, MessagingChannelEntity } from './messaging-channel.entity';
export type { MessagingChannel, MessagingChannelStatus } from './messaging-channel.entity';
export { OperatorEntity } from './operator.entity';
export { PLUGIN_CONNECTION_STATUSES, PluginConnectionEntity } from './plugin-connection.entity';
export type { PluginConnectionStatus } from './plugin-connection.entity';
export { PLUGIN_CONNECTION_KINDS, PluginEntity } from './plugin.entity';
export type { PluginConnectionKind } from './plugin.entity';
export { TenantEntity } from './tenant.entity';

import { CampaignModelCountEntity } from './campaign-model-count.entity';
import { CampaignModelEntity } from './campaign-model.entity';
import { CampaignEntity } from './campaign.entity';
import { MembershipEntity } from './membership.entity';
import { MessagingChannelEntity } from './messaging-channel.entity';
import { OperatorEntity } from './operator.entity';
import { PluginConnectionEntity } from './plugin-connection.entity';
import { PluginEntity } from './plugin.entity';
import { TenantEntity } from './tenant.entity';

/** Every entity of the platform's database. */
export const ENTITIES = [
  TenantEntity,
  OperatorEntity,
  MembershipEntity,
  PluginEntity,
  PluginConnectionEntity,
  MessagingChannelEntity,
  CampaignModelEntity,
  CampaignModelCountEntity,
  CampaignEntity,
];
