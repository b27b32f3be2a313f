import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { Clock } from '@platform/scheduling';
import { Principal } from '@platform/auth';
import { AppException } from '@platform/errors';
import { CustomHostnameProvider } from '../custom-hostnames/custom-hostname.provider';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { HELPDESK_SETTINGS, HelpdeskSettings } from '../helpdesk-access/helpdesk-settings';
import { DomainStatusResponse } from './domain.dto';
import { DomainEvents } from './domain-events';
import { domainStateOf } from './domain-state';
import { domainView } from './domain-view';
import { DomainsRepository } from './domains.repository';
import { HostnameRegistration } from './hostname-registration';
import { RefreshThrottle } from './refresh-throttle';

export interface RefreshDomainCommand {
  principal: Principal;
  tenantID: string;
  /** Normalised (normalizeHostname). */
  hostname: string;
}

/**
 * Operation 12: re-checks a domain at the provider, at most once per domain
 * every 10 s across replicas. The provider's answer decides the state; a
 * provider failure changes nothing stored (502 1122). A hostname the provider
 * no longer has is registered again, so the domain can still be activated.
 */
@Injectable()
export class RefreshDomainUseCase {
  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
    private readonly throttle: RefreshThrottle,
    private readonly provider: CustomHostnameProvider,
    private readonly registration: HostnameRegistration,
    private readonly clock: Clock,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
  ) {}

  async execute({ principal, tenantID, hostname }: RefreshDomainCommand): Promise<DomainStatusResponse> {
    const scope = await this.access.require(principal, tenantID);
    const domain = await this.domains.byHostname(scope, hostname);
    if (!domain) throw new AppException('HelpdeskNotFound');
    const previousStatus = domain.status;
    const verdict = await this.throttle.claim(domain.id, this.clock.now());
    if (!verdict.allowed) throw new AppException('DomainRefreshThrottled', { retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000) });

    const provisioned = (domain.providerID ? await this.provider.find(domain.providerID) : undefined) ?? (await this.registration.register(hostname));
    const state = domainStateOf(provisioned, this.settings.cnameTarget);
    const stored = await this.domains.transaction(async (runner) => {
      const checked = await this.domains.recordCheck(scope, domain.id, { providerID: provisioned.id, status: state.status, checkedAt: this.clock.now() }, runner);
      // Only the change to active is an administrative event; other refreshes change nothing an owner acts on.
      if (checked && checked.status === 'active' && previousStatus !== 'active') {
        await this.audit.record(runner, scope, { action: 'helpdeskDomain.activated', targetID: domain.hostname, summary: { previousStatus } });
      }
      // Any change a receiver keeps state by (pending -> active, and back), in the transaction that records it.
      if (checked) await this.events.statusChanged(runner, scope, checked);
      return checked;
    });
    if (!stored) throw new AppException('HelpdeskNotFound');
    return { cnameTarget: this.settings.cnameTarget, domain: domainView(stored), statusReason: state.statusReason };
  }
}
