import { StoredDomain } from './domains.repository';
import { HelpdeskDomainDto } from './domain.dto';

/** A stored domain as the API shows it (docs/helpdesk-domains.md, Data). */
export function domainView(domain: StoredDomain): HelpdeskDomainDto {
  return {
    domainHostname: domain.hostname,
    domainProviderID: domain.providerID,
    domainStatus: domain.status,
    lastCheckedAt: domain.lastCheckedAt ? domain.lastCheckedAt.toISOString() : null,
    verifiedAt: domain.verifiedAt ? domain.verifiedAt.toISOString() : null,
  };
}
