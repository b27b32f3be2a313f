import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { Clock } from '@platform/scheduling';
import { Principal } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { HELPDESK_SETTINGS, HelpdeskSettings } from '../helpdesk-access/helpdesk-settings';
import { DomainStatusResponse } from './domain.dto';
import { DomainEvents } from './domain-events';
import { domainStateOf } from './domain-state';
import { domainView } from './domain-view';
import { DomainsRepository } from './domains.repository';
import { HostnameRegistration } from './hostname-registration';

export interface AddDomainCommand {
  principal: Principal;
  tenantID: string;
  /** Normalised (normalizeHostname). */
  hostname: string;
  /** Claimed right after the access check (docs/idempotency.md, check order). */
  idempotency: IdempotencyKeyClaim;
}

/**
 * Adds a custom domain to the tenant's help center: reserve the hostname
 * (unique platform-wide, within the tenant's domain limit), register it at
 * the provider, store what the provider says. A provider failure releases the
 * reservation (502 1122). The domain, its audit record and its
 * `helpdeskDomain.added` event commit together, once the provider answered. Among operators only owners add: each domain costs
 * a hostname of the platform's provider quota and, until it expires, holds a
 * name no other tenant can add.
 */
@Injectable()
export class AddDomainUseCase {
  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
    private readonly registration: HostnameRegistration,
    private readonly clock: Clock,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
  ) {}

  async execute({ principal, tenantID, hostname, idempotency }: AddDomainCommand): Promise<DomainStatusResponse> {
    const scope = await this.access.require(principal, tenantID, { operatorMustBeOwner: true });
    await idempotency.claimKey();
    // Checked first so a taken hostname never reaches the provider; the unique index settles races.
    if (await this.domains.hostnameTaken(hostname)) throw new AppException('DomainHostnameTaken');
    const helpCenterID = await this.domains.ensureHelpCenter(scope);
    const reserved = await this.domains.reserve(scope, helpCenterID, hostname, this.settings.maxDomainsPerTenant);

    let provisioned;
    try {
      provisioned = await this.registration.register(hostname);
    } catch (error) {
      await this.domains.remove(scope, reserved.id);
      throw error;
    }
    const state = domainStateOf(provisioned, this.settings.cnameTarget);
    const stored = await this.domains.transaction(async (runner) => {
      const checked = await this.domains.recordCheck(scope, reserved.id, { providerID: provisioned.id, status: state.status, checkedAt: this.clock.now() }, runner);
      if (checked) {
        await this.audit.record(runner, scope, { action: 'helpdeskDomain.added', targetID: hostname, summary: { status: checked.status } });
        await this.events.added(runner, scope, checked);
      }
      return checked;
    });
    // Removed by a concurrent DELETE while it was being registered.
    if (!stored) throw new AppException('HelpdeskNotFound');
    return { cnameTarget: this.settings.cnameTarget, domain: domainView(stored), statusReason: state.statusReason };
  }
}
