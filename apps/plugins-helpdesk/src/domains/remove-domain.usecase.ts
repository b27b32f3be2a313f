import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '@platform/auth';
import { AppException } from '@platform/errors';
import { CustomHostnameProvider } from '../domain-provider/custom-hostname-provider';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { DomainRemoved } from './domain.dto';
import { DomainsRepository, StoredDomain } from './domains.repository';
import { HostnameDirectory } from './hostname-directory';
import { RefreshThrottle } from './refresh-throttle';

/**
 * Operation 13, in SPEC.md's order: the custom hostname is deleted at the
 * provider first (already gone there counts as done), then the entry is
 * dropped, then every replica forgets the hostname. A provider failure is
 * 502 1122 and the entry stays, so the call can simply be repeated.
 */
@Injectable()
export class RemoveDomain {
  private readonly logger = new Logger(RemoveDomain.name);

  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
    private readonly provider: CustomHostnameProvider,
    private readonly directory: HostnameDirectory,
    private readonly throttle: RefreshThrottle,
  ) {}

  /** `hostname` is normalised (normalizeHostname). */
  async execute(principal: Principal, tenantID: string, hostname: string): Promise<DomainRemoved> {
    const domain = await this.access.requireAndRead<StoredDomain>(principal, tenantID, this.domains.byHostname(hostname));
    if (!domain) throw new AppException('HelpdeskNotFound');

    // No provider id yet (an add still in flight, or one that stopped half-way): find it by name.
    const providerID = domain.providerID ?? (await this.provider.findByHostname(hostname))?.id;
    if (providerID) await this.provider.remove(providerID);
    await this.domains.remove(domain);
    await this.directory.forget(hostname);
    await this.throttle.release(domain.id).catch((error: unknown) => this.logger.warn({ err: error }, 'refresh slot not released'));
    return { deleted: true, domainHostname: domain.hostname };
  }
}
