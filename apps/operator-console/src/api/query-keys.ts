/** Every cached read, under its tenant: a tenant switch or a resync refetches the tenant's keys together. */
export const queryKeys = {
  tenant: (tenantID: string) => ['tenant', tenantID] as const,
  inboxes: (tenantID: string) => ['tenant', tenantID, 'inboxes'] as const,
  members: (tenantID: string) => ['tenant', tenantID, 'members'] as const,
  notifications: (tenantID: string) => ['tenant', tenantID, 'notifications'] as const,
  inbox: (tenantID: string, inboxID: string) => ['tenant', tenantID, 'inbox', inboxID] as const,
  queue: (tenantID: string, inboxID: string, queue: string) => ['tenant', tenantID, 'inbox', inboxID, 'queue', queue] as const,
  counts: (tenantID: string, inboxID: string) => ['tenant', tenantID, 'inbox', inboxID, 'counts'] as const,
  session: (tenantID: string, sessionID: string) => ['tenant', tenantID, 'session', sessionID] as const,
  messages: (tenantID: string, sessionID: string) => ['tenant', tenantID, 'session', sessionID, 'messages'] as const,
  presence: (tenantID: string, operatorID: string) => ['tenant', tenantID, 'presence', operatorID] as const,
  search: (tenantID: string, kind: 'messages' | 'contacts', q: string) => ['tenant', tenantID, 'search', kind, q] as const,
};
