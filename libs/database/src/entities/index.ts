export { BillingCancellationEntity } from './billing-cancellation.entity';
export { HelpCenterEntity } from './help-center.entity';
export { HELPDESK_DOMAIN_STATUSES, HelpdeskDomainEntity } from './helpdesk-domain.entity';
export type { HelpdeskDomainStatus } from './helpdesk-domain.entity';
export { MEMBERSHIP_ROLES, MembershipEntity } from './membership.entity';
export type { MembershipRole } from './membership.entity';
export { OperatorInvitationEntity } from './operator-invitation.entity';
export { OperatorEntity } from './operator.entity';
export { PLUGIN_CONNECTION_STATUSES, PluginConnectionEntity } from './plugin-connection.entity';
export type { PluginConnectionStatus } from './plugin-connection.entity';
export { PLUGIN_CONNECTION_KINDS, PluginEntity } from './plugin.entity';
export type { PluginConnectionKind } from './plugin.entity';
export { TenantEntity } from './tenant.entity';

import { BillingCancellationEntity } from './billing-cancellation.entity';
import { HelpCenterEntity } from './help-center.entity';
import { HelpdeskDomainEntity } from './helpdesk-domain.entity';
import { MembershipEntity } from './membership.entity';
import { OperatorInvitationEntity } from './operator-invitation.entity';
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
  BillingCancellationEntity,
  HelpCenterEntity,
  HelpdeskDomainEntity,
  OperatorInvitationEntity,
];
