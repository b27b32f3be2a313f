import { Inject, Injectable, Logger } from '@nestjs/common';
import { Principal, RequestCharges } from '@platform/auth';
import type { RateLimitSetting } from '@platform/config';
import { AppException } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';
import { currentRequest, PlatformMetrics } from '@platform/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WindowCounter, WindowReading } from './fixed-window-counters';
import { LeasedWindows } from './leased-windows';
import { principalSubjectOf, quotaCounterKey, tenantSubjectOf } from './quota-keys';

/** An app's budgets for its authenticated operations; an absent one is off. */
export interface RequestQuotaSettings {
  /** Names the app's counters, so each app keeps its own budgets. */
  app: string;
  principal?: RateLimitSetting;
  tenant?: RateLimitSetting;
}

export const REQUEST_QUOTA_SETTINGS = Symbol('REQUEST_QUOTA_SETTINGS');

type PolicyName = 'principal' | 'tenant';

/** Where the request keeps what its tenant's charge needs until the access check admits it. */
const PENDING_TENANT_CHARGE = Symbol('pendingTenantCharge');

interface PendingTenantCharge {
  reply: FastifyReply;
  /** The principal's reading, answered again in the headers beside the tenant's. */
  earlier: ChargedReading[];
}

type QuotaRequest = FastifyRequest & { [PENDING_TENANT_CHARGE]?: PendingTenantCharge };

interface Policy {
  name: PolicyName;
  setting: RateLimitSetting;
  /** The policy as `RateLimit-Policy` lists it, e.g. `"tenant";q=3000;w=60`. */
  header: string;
}

interface Charge {
  policy: Policy;
  counter: WindowCounter;
}

/** Where a budget stands after a charge, as its headers say it. */
interface QuotaReading {
  /** Requests left in the window; 0 once refused. */
  remaining: number;
  /** Seconds until the window ends and the budget is whole again, at least 1. */
  resetSeconds: number;
  allowed: boolean;
}

interface ChargedReading {
  policy: Policy;
  reading: QuotaReading;
}

/** How often a failing Redis is reported from here; the Redis client reports outages itself. */
const FAILURE_LOG_INTERVAL_MS = 60_000;


/**
 * The request budgets of authenticated operations (docs/security.md, Rate
 * limits and quotas): one per principal, charged once the caller is
 * authenticated, and one per tenant, charged once the caller is admitted to
 * that tenant (by its access check, or by authentication for a plugin
 * connection's own tenant). Every answer
 * carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers);
 * past a budget, 429 1071 with `Retry-After`.
 */
@Injectable()
export class RequestQuotas implements RequestCharges {
  private readonly logger = new Logger('RequestQuotas');
  private readonly principalPolicy?: Policy;
  private readonly tenantPolicy?: Policy;
  /** `RateLimit-Policy` of a request charged to both budgets: the same text every time. */
  private readonly bothPoliciesHeader?: string;
  private lastFailureLoggedAt = -Infinity;

  constructor(
    @Inject(REQUEST_QUOTA_SETTINGS) private readonly settings: RequestQuotaSettings,
    private readonly counters: LeasedWindows,
    private readonly metrics: PlatformMetrics,
  ) {
    this.principalPolicy = settings.principal && policyOf('principal', settings.principal);
    this.tenantPolicy = settings.tenant && policyOf('tenant', settings.tenant);
    if (this.principalPolicy && this.tenantPolicy) this.bothPoliciesHeader = `${this.principalPolicy.header}, ${this.tenantPolicy.header}`;
  }

  /**
   * Charges one request to the principal, once authenticated: and to its
   * tenant when authentication alone admits it there (a plugin connection on
   * no tenant of the path: its own). A tenant named in the path is charged
   * only once the access check has admitted the caller to it
   * (`chargeAdmittedTenant`), so a stranger never spends a tenant's budget,
   * whatever becomes of its request or its connection. Throws 429 1071 past
   * either budget; a principal over its own spends nothing of a tenant's.
   */
  async charge(request: QuotaRequest, reply: FastifyReply, principal: Principal): Promise<void> {
    const pathTenantID = this.tenantPolicy && pathTenantOf(request);
    const ownTenantID = this.tenantPolicy && !pathTenantID && principal.kind === 'pluginConnection' ? principal.tenantID : undefined;
    const charged: Charge[] = [];
    if (this.principalPolicy) charged.push({ policy: this.principalPolicy, counter: this.counterOf(this.principalPolicy, principalSubjectOf(principal)) });
    if (this.tenantPolicy && ownTenantID) charged.push({ policy: this.tenantPolicy, counter: this.counterOf(this.tenantPolicy, tenantSubjectOf(ownTenantID)) });
    const principalReading = charged.length > 0 ? await this.chargeAndAnswer(reply, charged, []) : undefined;
    if (principalReading === null) return;
    // The path's tenant waits for the access check; a principal refused above never gets there.
    if (pathTenantID) request[PENDING_TENANT_CHARGE] = { reply, earlier: principalReading ?? [] };
  }

  /**
   * Charges the tenant the access check has just admitted the request in
   * scope to (called by the access checks once their last step passed):
   * once per request, and only for a request whose path named a tenant.
   * Outside an HTTP request (a transport message, a job) it does nothing.
   */
  async chargeAdmittedTenant(tenantID: string): Promise<void> {
    const request = currentRequest() as QuotaRequest | undefined;
    const pending = request?.[PENDING_TENANT_CHARGE];
    if (!request || !pending || !this.tenantPolicy) return;
    request[PENDING_TENANT_CHARGE] = undefined;
    await this.chargeAndAnswer(pending.reply, [{ policy: this.tenantPolicy, counter: this.counterOf(this.tenantPolicy, tenantSubjectOf(canonicalUuid(tenantID))) }], pending.earlier);
  }

  /**
   * Charges `charged` from this replica's leased blocks (`LeasedWindows`:
   * Redis is asked only when a block is spent, a second old, or its window
   * turned) and writes the budget headers of every budget charged for this
   * request (`earlier` ones first). Answers the readings so far, or null
   * when Redis is away and a lease was needed (fail open: while Redis
   * is away the apps keep serving from PostgreSQL, docs/scaling.md, and a
   * limit that refused everyone then would turn a Redis outage into a
   * platform outage; the budgets resume with Redis). Throws 429 1071 past
   * a budget.
   */
  private async chargeAndAnswer(reply: FastifyReply, charged: Charge[], earlier: ChargedReading[]): Promise<ChargedReading[] | null> {
    let readings: QuotaReading[];
    try {
      readings = (await this.counters.charge(charged.map(({ counter }) => counter))).map(quotaReadingOf);
    } catch (error) {
      this.reportFailure(error);
      return null;
    }
    const all = [...earlier, ...readings.map((reading, index) => ({ policy: charged[index].policy, reading }))];
    const policies = charged.map(({ policy }) => policy);
    const everyPolicy = [...earlier.map(({ policy }) => policy), ...policies];
    void reply.header('ratelimit-policy', everyPolicy.length === 2 ? this.bothPoliciesHeader : everyPolicy[0].header);
    void reply.header('ratelimit', all.map(({ policy, reading }) => `"${policy.name}";r=${reading.remaining};t=${reading.resetSeconds}`).join(', '));
    const refused = readings.findIndex((reading) => !reading.allowed);
    if (refused >= 0) {
      this.metrics.refused(`quota:${charged[refused].policy.name}`);
      throw new AppException('TooManyRequests', { retryAfterSeconds: readings[refused].resetSeconds });
    }
    return all;
  }

  private counterOf(policy: Policy, subject: string): WindowCounter {
    return { key: quotaCounterKey(this.settings.app, policy.name, subject), limit: policy.setting.limit, windowSeconds: policy.setting.windowSeconds };
  }

  private reportFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLoggedAt = now;
    this.logger.warn({ err: error }, 'request quotas unavailable; serving without them');
  }
}

/** A budget's reading: its reset in whole seconds, at least 1, as `RateLimit` and `Retry-After` say it. */
function quotaReadingOf({ remaining, resetMs, allowed }: WindowReading): QuotaReading {
  return { remaining, resetSeconds: Math.max(Math.ceil(resetMs / 1000), 1), allowed };
}

function policyOf(name: PolicyName, setting: RateLimitSetting): Policy {
  return { name, setting, header: `"${name}";q=${setting.limit};w=${setting.windowSeconds}` };
}

/** The tenant of the path, when it is a UUID (anything else is refused 400 later, charged to the principal only). */
function pathTenantOf(request: FastifyRequest): string | undefined {
  const tenantID = (request.params as Record<string, string | undefined> | undefined)?.tenantID;
  return isUuid(tenantID) ? canonicalUuid(tenantID) : undefined;
}
