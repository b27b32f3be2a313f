import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RateLimitSetting } from '@platform/config';
import { AppException } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';
import { currentRequest, PlatformMetrics } from '@platform/observability';
import { QuotaCounter, QuotaCounters, QuotaReading } from '@platform/redis';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Principal } from './principal';

/** An app's budgets for its authenticated operations; an absent one is off. */
export interface RequestQuotaSettings {
  /** Names the app's counters, so each app keeps its own budgets. */
  app: string;
  principal?: RateLimitSetting;
  tenant?: RateLimitSetting;
}

export const REQUEST_QUOTA_SETTINGS = Symbol('REQUEST_QUOTA_SETTINGS');

type PolicyName = 'principal' | 'tenant';

interface Policy {
  name: PolicyName;
  setting: RateLimitSetting;
  /** The policy as `RateLimit-Policy` lists it, e.g. `"tenant";q=3000;w=60`. */
  header: string;
}

/** How often a failing Redis is reported from here; the Redis client reports outages itself. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** The principal's own name in its counter's key. */
function subjectOf(principal: Principal): string {
  if (principal.kind === 'operator') return `operator:${principal.operatorID}`;
  if (principal.kind === 'plugin') return `plugin:${principal.pluginID}`;
  return `pluginConnection:${principal.pluginConnectionID}`;
}

/**
 * The request budgets of authenticated operations (docs/security.md, Rate
 * limits and quotas): one per principal and one per tenant, charged together
 * once the caller is authenticated, in one Redis round trip. Every answer
 * carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers);
 * past a budget, 429 1071 with `Retry-After`.
 */
@Injectable()
export class RequestQuotas {
  private readonly logger = new Logger('RequestQuotas');
  private readonly principalPolicy?: Policy;
  private readonly tenantPolicy?: Policy;
  /** `RateLimit-Policy` of a request charged to both budgets: the same text every time. */
  private readonly bothPoliciesHeader?: string;
  private lastFailureLoggedAt = -Infinity;

  constructor(
    @Inject(REQUEST_QUOTA_SETTINGS) private readonly settings: RequestQuotaSettings,
    private readonly counters: QuotaCounters,
    private readonly metrics: PlatformMetrics,
  ) {
    this.principalPolicy = settings.principal && policyOf('principal', settings.principal);
    this.tenantPolicy = settings.tenant && policyOf('tenant', settings.tenant);
    if (this.principalPolicy && this.tenantPolicy) this.bothPoliciesHeader = `${this.principalPolicy.header}, ${this.tenantPolicy.header}`;
  }

  /**
   * Charges one request to the principal and to the tenant it acts on: the
   * tenant of the path, else the tenant of a plugin connection. Throws 429
   * 1071 past either budget.
   */
  async charge(request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void> {
    const pathTenantID = this.tenantPolicy && pathTenantOf(request);
    const tenantID = this.tenantPolicy && (pathTenantID ?? (principal.kind === 'pluginConnection' ? principal.tenantID : undefined));
    const charged: { policy: Policy; counter: QuotaCounter }[] = [];
    if (this.principalPolicy) charged.push({ policy: this.principalPolicy, counter: this.counterOf(this.principalPolicy, subjectOf(principal)) });
    if (this.tenantPolicy && tenantID) charged.push({ policy: this.tenantPolicy, counter: this.counterOf(this.tenantPolicy, tenantID) });
    if (charged.length === 0) return;

    let readings: QuotaReading[];
    try {
      readings = await this.counters.charge(charged.map(({ counter }) => counter));
    } catch (error) {
      // Fail open: while Redis is away the apps keep serving from PostgreSQL
      // (docs/scaling.md), and a limit that refused everyone then would turn a
      // Redis outage into a platform outage. The budgets resume with Redis.
      this.reportFailure(error);
      return;
    }

    void reply.header('ratelimit-policy', charged.length === 2 ? this.bothPoliciesHeader : charged[0].policy.header);
    void reply.header('ratelimit', readings.map((reading, index) => `"${charged[index].policy.name}";r=${reading.remaining};t=${reading.resetSeconds}`).join(', '));
    const refused = readings.findIndex((reading) => !reading.allowed);
    if (refused >= 0) {
      this.metrics.refused(`quota:${charged[refused].policy.name}`);
      throw new AppException('TooManyRequests', { retryAfterSeconds: readings[refused].resetSeconds });
    }
    const tenantCharge = readings.length === charged.length && tenantID && pathTenantID ? charged[charged.length - 1].counter : undefined;
    if (tenantCharge) this.refundUnlessGranted(reply, tenantCharge.key);
  }

  /**
   * A tenant is charged before its access check runs (that check needs the
   * operation's parameters, and validation answers before it). A request that
   * never passed the check (refused 403, or refused 400 by validation before
   * it) is given back to the tenant once answered, so callers who are not of
   * a tenant cannot spend its budget; they still spend their own. Outside a
   * request scope (never, in the apps) only a 403 is given back.
   */
  private refundUnlessGranted(reply: FastifyReply, key: string): void {
    const inScope = currentRequest();
    reply.raw.once('finish', () => {
      if (inScope ? inScope.tenantAccessGranted : reply.statusCode !== 403) return;
      this.counters.refund(key).catch((error: unknown) => this.reportFailure(error));
    });
  }

  private counterOf(policy: Policy, subject: string): QuotaCounter {
    return { key: `quota:v1:${this.settings.app}:${policy.name}:${subject}`, limit: policy.setting.limit, windowSeconds: policy.setting.windowSeconds };
  }

  private reportFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLoggedAt = now;
    this.logger.warn({ err: error }, 'request quotas unavailable; serving without them');
  }
}

function policyOf(name: PolicyName, setting: RateLimitSetting): Policy {
  return { name, setting, header: `"${name}";q=${setting.limit};w=${setting.windowSeconds}` };
}

/** The tenant of the path, when it is a UUID (anything else is refused 400 later, charged to the principal only). */
function pathTenantOf(request: FastifyRequest): string | undefined {
  const tenantID = (request.params as Record<string, string | undefined> | undefined)?.tenantID;
  return isUuid(tenantID) ? canonicalUuid(tenantID) : undefined;
}
