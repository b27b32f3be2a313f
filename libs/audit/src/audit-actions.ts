/**
 * The administrative actions the audit log records, each with the kind of
 * thing it acts on. Adding an action is adding a line here (and to
 * docs/audit-log.md); a name, once used, never changes meaning.
 */
export const AUDIT_ACTIONS = {
  'pluginConnection.installed': 'pluginConnection',
  'pluginConnection.deleted': 'pluginConnection',
  'invitation.sent': 'invitation',
  'invitation.accepted': 'invitation',
  'invitation.revoked': 'invitation',
  'member.roleChanged': 'member',
  'member.removed': 'member',
  'helpdeskDomain.added': 'helpdeskDomain',
  'helpdeskDomain.activated': 'helpdeskDomain',
  'helpdeskDomain.removed': 'helpdeskDomain',
  'campaignModel.created': 'campaignModel',
  'campaignModel.updated': 'campaignModel',
  'webhookEndpoint.created': 'webhookEndpoint',
  'webhookEndpoint.updated': 'webhookEndpoint',
  'webhookEndpoint.deleted': 'webhookEndpoint',
  'webhookEndpoint.secretRotated': 'webhookEndpoint',
  'inbox.created': 'inbox',
  'inbox.renamed': 'inbox',
  'inbox.removed': 'inbox',
  'inbox.routingChanged': 'inbox',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetKind = (typeof AUDIT_ACTIONS)[AuditAction];

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** A summary value: what changed, never a secret (tokens, passwords, codes are not summaries). */
export type AuditSummaryValue = string | number | boolean | null | readonly string[];

/** One action to record: what, on which target, and a short summary of the change. */
export interface AuditRecord<Action extends AuditAction = AuditAction> {
  action: Action;
  targetID: string;
  summary?: Record<string, AuditSummaryValue>;
}
