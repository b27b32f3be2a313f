import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { trustedTenantScope } from '@platform/auth';
import { PeriodicSweep } from '@platform/database';
import { CustomHostnameProvider } from '../custom-hostnames/custom-hostname.provider';
import { HELPDESK_SETTINGS, HelpdeskSettings } from '../helpdesk-access/helpdesk-settings';
import { DomainEvents } from './domain-events';
import { DomainsRepository } from './domains.repository';
import { ExpiredDomain, ExpiredDomainsRepository } from './expired-domains.repository';
import { HostnameDirectory } from './hostname-directory';
import { RefreshThrottle } from './refresh-throttle';

const DAY_MS = 86_400_000;

/** Domains one sweep removes at most, so a sweep ends in bounded time (a provider call each). */
const SWEEP_LIMIT = 200;

/** What one sweep did. */
export interface ExpirySweepResult {
  removed: string[];
  /** Hostnames whose removal failed at the provider; they stay, and the next sweep tries again. */
  failed: string[];
}

/**
 * Pending domains expire HELPDESK_PENDING_DOMAIN_TTL_DAYS after they were
 * added: each is deleted at the provider, then dropped, which releases its
 * hostname to any tenant (docs/helpdesk-domains.md, Limits and expiry). A
 * domain that was active once is never expired, even pending again.
 *
 * Guarantee: at-least-once removal at the provider, and the row outlives the
 * provider's record. Each domain is handled in its own transaction that
 * holds the row's lock across the provider call and deletes the row only
 * after the provider confirmed (or said it no longer has the hostname). If
 * the provider fails, the transaction rolls back and the row stays as it
 * was, so the next sweep (every HELPDESK_DOMAIN_SWEEP_INTERVAL_SECONDS, on
 * every replica) tries again; if the process dies after the provider's
 * delete, the next sweep's delete meets "no such hostname", which counts as
 * done. The lock keeps a refresh from recording the domain while it is being
 * removed, and another replica from removing it twice at once. The drop
 * and its `helpdeskDomain.removed` event commit together.
 */
@Injectable()
export class PendingDomainExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PendingDomainExpiry.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly expired: ExpiredDomainsRepository,
    private readonly domains: DomainsRepository,
    private readonly provider: CustomHostnameProvider,
    private readonly directory: HostnameDirectory,
    private readonly throttle: RefreshThrottle,
    private readonly clock: Clock,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
    private readonly events: DomainEvents,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(this.settings.domainSweepIntervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** One sweep, or the one under way on this replica. */
  sweep(): Promise<ExpirySweepResult> {
    return this.periodic.run();
  }

  private async sweepQuietly(): Promise<ExpirySweepResult> {
    const addedBefore = new Date(this.clock.now().getTime() - this.settings.pendingDomainTtlDays * DAY_MS);
    const result: ExpirySweepResult = { removed: [], failed: [] };
    const skipped: string[] = [];
    try {
      while (result.removed.length + result.failed.length < SWEEP_LIMIT) {
        const outcome = await this.expireNext(addedBefore, skipped);
        if (outcome === undefined) break;
        if (outcome.removed) result.removed.push(outcome.domain.hostname);
        else {
          result.failed.push(outcome.domain.hostname);
          skipped.push(outcome.domain.id);
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'pending domain expiry sweep stopped; the next sweep goes on');
    }
    if (result.removed.length > 0) this.logger.log({ hostnames: result.removed }, 'expired pending domains removed');
    if (result.failed.length > 0) this.logger.warn({ hostnames: result.failed }, 'expired pending domains not removed at the provider; retried next sweep');
    return result;
  }

  /** Claims, removes at the provider, then drops one expired domain; undefined when none is left. */
  private async expireNext(addedBefore: Date, skipped: string[]): Promise<{ domain: ExpiredDomain; removed: boolean } | undefined> {
    const attempt: { domain?: ExpiredDomain } = {};
    try {
      await this.expired.transaction(async (runner) => {
        attempt.domain = await this.expired.claimNext(runner, addedBefore, skipped);
        if (!attempt.domain) return;
        const { id, tenantID, hostname, providerID: stored } = attempt.domain;
        // No provider id: an add stopped between reserving and registering; the record, if any, is found by name.
        const providerID = stored ?? (await this.provider.findByHostname(hostname))?.id;
        if (providerID) await this.provider.remove(providerID);
        const scope = trustedTenantScope(tenantID);
        if (await this.domains.remove(scope, id, runner)) await this.events.removed(runner, scope, { id, hostname });
      });
    } catch (error) {
      if (!attempt.domain) throw error;
      this.logger.warn({ err: error, hostname: attempt.domain.hostname }, 'expired domain not removed; kept for the next sweep');
      return { domain: attempt.domain, removed: false };
    }
    if (!attempt.domain) return undefined;
    await this.forget(attempt.domain);
    return { domain: attempt.domain, removed: true };
  }

  /** After the row is gone: no replica serves the hostname from cache, and its refresh slot goes. */
  private async forget(domain: ExpiredDomain): Promise<void> {
    await this.directory.forget(domain.hostname);
    await this.throttle.release(domain.id).catch((error: unknown) => this.logger.warn({ err: error }, 'refresh slot not released'));
  }
}
