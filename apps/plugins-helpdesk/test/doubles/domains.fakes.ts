import type { SqlRunner } from '@platform/database';
import { fake, RecordingAuditTrail, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { grantTenantScope, Principal, TenantScope } from '@platform/auth';
import { AppException, ErrorKey } from '@platform/errors';
import { CustomHostnameProvider, ProvisionedHostname, RegistrationOutcome } from '../../src/custom-hostnames/custom-hostname.provider';
import type { HelpdeskAccess, HelpdeskRequirement } from '../../src/helpdesk-access/helpdesk-access.service';
import type { HelpdeskSettings } from '../../src/helpdesk-access/helpdesk-settings';
import { DomainEvents } from '../../src/domains/domain-events';
import type { DomainCheck, DomainsRepository, HostnameEntry, StoredDomain } from '../../src/domains/domains.repository';
import type { HostnameDirectory } from '../../src/domains/hostname-directory';
import { REFRESH_WINDOW_MS, RefreshThrottle, ThrottleVerdict } from '../../src/domains/refresh-throttle';

/**
 * In-memory doubles of the ports the domain use cases depend on, for their
 * unit tests. Each keeps the visible rule of what it stands for (the unique
 * hostname, verified_at stamped once, the 10 s refresh window) and nothing
 * of how it is done.
 */

export const SETTINGS: HelpdeskSettings = {
  pluginUrn: 'urn:plugin:helpdesk',
  cnameTarget: 'clientes.central-ajuda.com.br',
  maxDomainsPerTenant: 3,
  pendingDomainTtlDays: 7,
  domainSweepIntervalSeconds: 900,
};
export const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
export const OTHER_TENANT = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f90a1b2c3';
export const OPERATOR: Principal = { kind: 'operator', operatorID: '0f1e2d3c-4b5a-4968-8776-655443322110' };

/** `helpdesk_domains` and `help_centers`, with every write and every list read recorded. */
export class FakeDomains {
  /** What the use cases recorded in the audit log, and the runner of their transactions. */
  readonly audit = new RecordingAuditTrail();
  /** What the use cases emitted to webhooks, and the runner of their transactions. */
  readonly webhooks = new RecordingWebhookEvents();
  readonly runner: SqlRunner = { query: async () => [] };
  readonly domains: StoredDomain[] = [];
  readonly helpCenters = new Map<string, string>();
  readonly writes: string[] = [];
  readonly reads: string[] = [];
  private ids = 0;

  /** A row as if an earlier request had stored it. */
  seed(domain: Partial<StoredDomain> & { hostname: string }): StoredDomain {
    const row: StoredDomain = { id: this.nextID(), tenantID: TENANT, providerID: null, status: 'pending', lastCheckedAt: null, verifiedAt: null, ...domain };
    this.domains.push(row);
    return row;
  }

  find(tenantID: string, hostname: string): StoredDomain | undefined {
    return this.domains.find((domain) => domain.tenantID === tenantID && domain.hostname === hostname);
  }

  asRepository(): DomainsRepository {
    return fake<DomainsRepository>({
      ensureHelpCenter: async (scope: TenantScope) => {
        if (!this.helpCenters.has(scope.tenantID)) {
          this.helpCenters.set(scope.tenantID, this.nextID());
          this.writes.push('help center created');
        }
        return this.helpCenters.get(scope.tenantID)!;
      },
      byHostname: async (scope: TenantScope, hostname: string) => this.find(scope.tenantID, hostname),
      hostnameTaken: async (hostname: string) => this.domains.some((domain) => domain.hostname === hostname),
      reserve: async (scope: TenantScope, _helpCenterID: string, hostname: string, limit: number) => {
        if (this.domains.some((domain) => domain.hostname === hostname)) throw new AppException('DomainHostnameTaken');
        if (this.ofTenant(scope).length >= limit) throw new AppException('DomainLimitReached');
        this.writes.push(`reserved ${hostname}`);
        return { ...this.seed({ tenantID: scope.tenantID, hostname }) };
      },
      recordCheck: async (scope: TenantScope, domainID: string, check: DomainCheck) => {
        const domain = this.domains.find((row) => row.id === domainID && row.tenantID === scope.tenantID);
        if (!domain) return undefined;
        this.writes.push(`checked ${domain.hostname}`);
        const previousStatus = domain.status;
        Object.assign(domain, {
          providerID: check.providerID,
          status: check.status,
          lastCheckedAt: check.checkedAt,
          verifiedAt: check.status === 'active' && !domain.verifiedAt ? check.checkedAt : domain.verifiedAt,
        });
        return { ...domain, previousStatus };
      },
      remove: async (scope: TenantScope, domainID: string) => {
        const index = this.domains.findIndex((row) => row.id === domainID && row.tenantID === scope.tenantID);
        if (index < 0) return false;
        this.writes.push(`removed ${this.domains[index].hostname}`);
        this.domains.splice(index, 1);
        return true;
      },
      transaction: transactionOn(this.runner),
      list: async (scope: TenantScope, page: { offset: number; limit: number }) => {
        this.reads.push('list');
        return this.ofTenant(scope)
          .slice(page.offset, page.offset + page.limit)
          .map((domain) => ({ ...domain }));
      },
      count: async (scope: TenantScope) => {
        this.reads.push('count');
        return this.ofTenant(scope).length;
      },
      entryOf: async (hostname: string): Promise<HostnameEntry | undefined> => {
        const domain = this.domains.find((row) => row.hostname === hostname);
        return domain && { tenantID: domain.tenantID, helpCenterID: this.helpCenters.get(domain.tenantID) ?? '' };
      },
    });
  }

  /** The domain events the use cases emit, into `webhooks`. */
  asEvents(): DomainEvents {
    return new DomainEvents(this.webhooks.asEvents());
  }

  private ofTenant(scope: TenantScope): StoredDomain[] {
    return this.domains.filter((domain) => domain.tenantID === scope.tenantID).sort((a, b) => (a.hostname < b.hostname ? -1 : 1));
  }

  private nextID(): string {
    this.ids += 1;
    return `00000000-0000-4000-8000-${String(this.ids).padStart(12, '0')}`;
  }
}

/** The helpdesk access rule as the use cases see it: granted, or refused with `refusal`. */
export class FakeAccess {
  refusal?: ErrorKey;
  checks = 0;
  /** What each `require` asked of the caller. */
  readonly requirements: HelpdeskRequirement[] = [];

  asAccess(): HelpdeskAccess {
    return fake<HelpdeskAccess>({
      require: async (_principal: Principal, tenantID: string, requirement: HelpdeskRequirement = {}) => {
        this.requirements.push(requirement);
        return this.check(tenantID);
      },
    });
  }

  private check(tenantID: string): TenantScope {
    this.checks += 1;
    if (this.refusal) throw new AppException(this.refusal);
    return grantTenantScope(tenantID);
  }
}

/** The provider's zone: custom hostnames by id, and the calls made to it. */
export class FakeProvider extends CustomHostnameProvider {
  readonly zone = new Map<string, ProvisionedHostname>();
  readonly calls: string[] = [];
  /** Every call throws 502 1122, as the adapter does when the provider fails. */
  failing = false;
  /** Refuse the name itself instead of registering it. */
  refuses = false;
  /** What the next registrations say about the hostname. */
  answer: Pick<ProvisionedHostname, 'status' | 'sslStatus' | 'verificationErrors'> = { status: 'pending', sslStatus: 'initializing', verificationErrors: [] };
  /** Runs while a registration is at the provider. */
  duringRegistration?: () => void;
  private ids = 0;

  /** A custom hostname the zone already holds. */
  hold(hostname: string, state: Partial<ProvisionedHostname> = {}): ProvisionedHostname {
    this.ids += 1;
    const held: ProvisionedHostname = { id: `cf-${this.ids}`, hostname, ...this.answer, sslValidationErrors: [], ...state };
    this.zone.set(held.id, held);
    return held;
  }

  async register(hostname: string): Promise<RegistrationOutcome> {
    this.call(`register ${hostname}`);
    this.duringRegistration?.();
    if (this.refuses) return { outcome: 'refused' };
    if ([...this.zone.values()].some((held) => held.hostname === hostname)) return { outcome: 'duplicate' };
    return { outcome: 'registered', hostname: this.hold(hostname) };
  }

  async find(providerID: string): Promise<ProvisionedHostname | undefined> {
    this.call(`find ${providerID}`);
    const held = this.zone.get(providerID);
    return held && { ...held, ...this.answer };
  }

  async findByHostname(hostname: string): Promise<ProvisionedHostname | undefined> {
    this.call(`findByHostname ${hostname}`);
    return [...this.zone.values()].find((held) => held.hostname === hostname);
  }

  async remove(providerID: string): Promise<void> {
    this.call(`remove ${providerID}`);
    this.zone.delete(providerID);
  }

  private call(what: string): void {
    this.calls.push(what);
    if (this.failing) throw new AppException('DomainProvisioning');
  }
}

/** The refresh slot of each domain: one claim per REFRESH_WINDOW_MS, by the claim times given. */
export class FakeThrottle {
  readonly claims = new Map<string, number>();
  releases: string[] = [];
  failsToRelease = false;

  asThrottle(): RefreshThrottle {
    return fake<RefreshThrottle>({
      claim: async (domainID: string, now: Date): Promise<ThrottleVerdict> => {
        const last = this.claims.get(domainID);
        const elapsed = last === undefined ? REFRESH_WINDOW_MS : now.getTime() - last;
        if (elapsed < REFRESH_WINDOW_MS) return { allowed: false, retryAfterMs: REFRESH_WINDOW_MS - elapsed };
        this.claims.set(domainID, now.getTime());
        return { allowed: true };
      },
      release: async (domainID: string) => {
        if (this.failsToRelease) throw new Error('Redis is away');
        this.releases.push(domainID);
        this.claims.delete(domainID);
      },
    });
  }
}

/** The hostname cache: which hostnames every replica was told to forget. */
export class FakeDirectory {
  readonly forgotten: string[] = [];

  asDirectory(): HostnameDirectory {
    return fake<HostnameDirectory>({
      forget: async (hostname: string) => {
        this.forgotten.push(hostname);
      },
    });
  }
}

/** The error key a rejected use case threw, or 'ok'. */
export async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppException) return error.key;
    throw error;
  }
}
