import { expect } from 'vitest';
import { FaultPlatform, HELPDESK_PLUGIN_URN } from './harness/fault-platform';
import { RoundRobin } from './harness/round-robin';

/** A tenant connected to the helpdesk plugin, its owner's bearer header and its domains' paths. */
export interface HelpdeskTenant {
  tenantID: string;
  owner: string;
  domainsPath: string;
  domainPath(hostname: string): string;
  /** Adds a domain through `balancer` (the provider must be up); answers its hostname. */
  addDomain(balancer: RoundRobin): Promise<string>;
}

let domains = 0;

export async function helpdeskTenant(platform: FaultPlatform): Promise<HelpdeskTenant> {
  const plugin = await platform.fixtures.pluginWithUrn(HELPDESK_PLUGIN_URN, 'Central de ajuda');
  const tenantID = await platform.fixtures.tenant();
  await platform.fixtures.connection(tenantID, plugin.pluginID);
  const operator = await platform.fixtures.operator();
  await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
  const owner = `Bearer ${await platform.tokenFor(operator.operatorID)}`;
  const domainsPath = `/helpdesk/v1/tenants/${tenantID}/helpdesk/domains`;
  return {
    tenantID,
    owner,
    domainsPath,
    domainPath: (hostname) => `${domainsPath}/${hostname}`,
    async addDomain(balancer) {
      domains += 1;
      const domainHostname = `ajuda-${domains}-${Math.random().toString(36).slice(2, 8)}.acme-atendimento.com.br`;
      const added = await balancer.request(domainsPath, { method: 'POST', headers: { authorization: owner }, body: { domainHostname } });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      return domainHostname;
    },
  };
}
