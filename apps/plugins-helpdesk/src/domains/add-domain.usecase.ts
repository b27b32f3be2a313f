import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@platform/auth';
import { AppException } from '@platform/errors';
import { Clock } from '../clock';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { HELPDESK_SETTINGS, HelpdeskSettings } from '../helpdesk-access/helpdesk-settings';
import { DomainStatusResponse } from './domain.dto';
import { domainStateOf } from './domain-state';
import { domainView } from './domain-view';
import { DomainsRepository } from './domains.repository';
import { HostnameRegistration } from './hostname-registration';

/**
 * Adds a custom domain to the tenant's help center: reserve the hostname
 * (unique platform-wide), register it at the provider, store what the
 * provider says. A provider failure releases the reservation (502 1122).
 */
@Injectable()
export class AddDomain {
  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
    private readonly registration: HostnameRegistration,
    private readonly clock: Clock,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
  ) {}

  /** `hostname` is normalised (normalizeHostname). */
  async execute(principal: Principal, tenantID: string, hostname: string): Promise<DomainStatusResponse> {
    await this.access.require(principal, tenantID);
    // Checked first so a taken hostname never reaches the provider; the unique index settles races.
    if (await this.domains.hostnameTaken(hostname)) throw new AppException('DomainHostnameTaken');
    const helpCenterID = await this.domains.ensureHelpCenter(tenantID);
    const reserved = await this.domains.reserve(tenantID, helpCenterID, hostname);

    let provisioned;
    try {
      provisioned = await this.registration.register(hostname);
    } catch (error) {
      await this.domains.remove(reserved);
      throw error;
    }
    const state = domainStateOf(provisioned, this.settings.cnameTarget);
    const stored = await this.domains.recordCheck(reserved, { providerID: provisioned.id, status: state.status, checkedAt: this.clock.now() });
    // Removed by a concurrent DELETE while it was being registered.
    if (!stored) throw new AppException('HelpdeskNotFound');
    return { cnameTarget: this.settings.cnameTarget, domain: domainView(stored), statusReason: state.statusReason };
  }
}
