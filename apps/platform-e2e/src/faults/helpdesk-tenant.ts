import { PluginsHelpdeskClient } from '@platform/api-client';
import { expect } from 'vitest';
import { FaultPlatform, HELPDESK_PLUGIN_URN } from './harness/fault-platform';

let domains = 0;

/** A tenant connected to the helpdesk plugin, its owner's bearer header, and operations on its domains as the owner through a given client. */
export type HelpdeskTenant = Awaited<ReturnType<typeof helpdeskTenant>>;

export async function helpdeskTenant(platform: FaultPlatform) {
  const plugin = await platform.fixtures.pluginWithUrn(HELPDESK_PLUGIN_URN, 'Central de ajuda');
  const tenantID = await platform.fixtures.tenant();
  await platform.fixtures.connection(tenantID, plugin.pluginID);
  const operator = await platform.fixtures.operator();
  await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
  const owner = `Bearer ${await platform.tokenFor(operator.operatorID)}`;
  const headers = { authorization: owner };
  return {
    tenantID,
    owner,
    /** Adds a domain (the provider must be up); answers its hostname. */
    async addDomain(helpdesk: PluginsHelpdeskClient): Promise<string> {
      domains += 1;
      const domainHostname = `ajuda-${domains}-${Math.random().toString(36).slice(2, 8)}.acme-atendimento.com.br`;
      const added = await helpdesk.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID } }, headers, body: { domainHostname } });
      expect(added.response.status, JSON.stringify(added.data ?? added.error)).toBe(201);
      return domainHostname;
    },
    /** Operation 12. */
    refresh: (helpdesk: PluginsHelpdeskClient, domainHostname: string) =>
      helpdesk.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}/refresh', { params: { path: { tenantID, domainHostname } }, headers }),
    /** Operation 13. */
    remove: (helpdesk: PluginsHelpdeskClient, domainHostname: string) =>
      helpdesk.DELETE('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}', { params: { path: { tenantID, domainHostname } }, headers }),
    list: (helpdesk: PluginsHelpdeskClient) => helpdesk.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID } }, headers }),
  };
}
