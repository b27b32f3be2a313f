import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { Principal } from '@platform/auth';
import { AppException } from '@platform/errors';
import { CustomHostnameProvider } from '../custom-hostnames/custom-hostname.provider';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { DomainRemovedResponse } from './domain.dto';
import { DomainEvents } from './domain-events';
import { DomainsRepository } from './domains.repository';
import { HostnameDirectory } from './hostname-directory';
import { RefreshThrottle } from './refresh-throttle';

export interface RemoveDomainCommand {
  principal: Principal;
  tenantID: string;
  /** Normalised (normalizeHostname). */
  hostname: string;
}

/**
 * Operation 13, in its documented order (docs/helpdesk-domains.md, Remove): the custom hostname is deleted at the
 * provider first (already gone there counts as done), then the entry is
 * dropped, then every replica forgets the hostname. A provider failure is
 * 502 1122 and the entry stays, so the call can simply be repeated.
 */
@Injectable()
export class RemoveDomainUseCase {
  private readonly logger = new Logger(RemoveDomainUseCase.name);

  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
    private readonly provider: CustomHostnameProvider,
    private readonly directory: HostnameDirectory,
    private readonly throttle: RefreshThrottle,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
  ) {}

  async execute({ principal, tenantID, hostname }: RemoveDomainCommand): Promise<DomainRemovedResponse> {
    const scope = await this.access.require(principal, tenantID);
    const domain = await this.domains.byHostname(scope, hostname);
    if (!domain) throw new AppException('HelpdeskNotFound');

    // No provider id yet (an add still in flight, or one that stopped half-way): find it by name.
    const providerID = domain.providerID ?? (await this.provider.findByHostname(hostname))?.id;
    if (providerID) await this.provider.remove(providerID);
    await this.domains.transaction(async (runner) => {
      if (await this.domains.remove(scope, domain.id, runner)) {
        await this.audit.record(runner, scope, { action: 'helpdeskDomain.removed', targetID: domain.hostname, summary: { providerRemoved: Boolean(providerID) } });
        await this.events.removed(runner, scope, domain);
      }
    });
    await this.directory.forget(hostname);
    await this.throttle.release(domain.id).catch((error: unknown) => this.logger.warn({ err: error }, 'refresh slot not released'));
    return { deleted: true, domainHostname: domain.hostname };
  }
}
