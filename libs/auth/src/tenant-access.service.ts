import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { canonicalUuid } from '@platform/http-common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { AuthCacheSettings } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import { ExpiringCache } from './expiring-cache';
import { Principal } from './principal';
import { readRedisCopy } from './redis-copy';
import { RequestCharges } from './request-charges';
import { StandingInvalidations } from './standing-invalidations';
import { grantTenantScope, TenantScope } from './tenant-scope';

/** What a principal may do on a tenant, as looked up (and cached briefly). */
type Standing = 'no-tenant' | 'none' | 'member' | 'owner' | 'installed';

export interface AccessRequirement {
  /** Only tenant owners pass (operators only; plugins and connections never own a tenant). */
  ownerOnly?: boolean;
  /** Answer 404 1062 for an unknown tenant (endpoints whose documented errors list it); else 403. */
  tenantNotFoundIs404?: boolean;
}

/**
 * Seconds a looked-up standing is reused. Membership is not in the token; a
 * removal or a role change forgets the standing on every replica at once
 * (`forget`), and this bounds how long a copy written back by a lookup that
 * raced the change can live.
 */
const STANDING_TTL_SECONDS = 5;

/** Entries are sealed (cache-seal.ts); v1 entries, unsealed, are never read. */
const standingKey = (tenantID: string, subject: string) => `auth:v2:standing:${tenantID}:${subject}`;

const STANDINGS: readonly Standing[] = ['no-tenant', 'none', 'member', 'owner', 'installed'];

/** Operator standings kept in-process at once, per replica. */
const LOCAL_OPERATOR_STANDINGS = 10_000;

/**
 * Tenant access checks: operator member or owner, plugin installed on the
 * tenant (it has a live connection there), connection of the tenant. Steps 4
 * and 5 of the check order in docs/http-conventions.md: tenant existence, then access.
 */
@Injectable()
export class TenantAccessService {
  private readonly logger = new Logger(TenantAccessService.name);
  /**
   * Operator standings, also kept in this process until their Redis copy
   * expires, which spares a Redis round trip on most requests. They are read
   * only while this replica listens to the standing invalidations, so a
   * removal or role change (`forget`, on any replica) is seen by the next
   * request. Plugin standings are not kept here.
   */
  private readonly operatorStandings = new ExpiringCache<Standing>(LOCAL_OPERATOR_STANDINGS);
  /** Counts the invalidations heard: a lookup that saw one arrive while it ran keeps no in-process copy. */
  private invalidationsHeard = 0;

  constructor(
    private readonly reads: AuthReadsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly seal: CacheSeal,
    private readonly invalidations: StandingInvalidations,
    private readonly quotas: RequestCharges,
    private readonly settings: AuthCacheSettings,
  ) {
    invalidations.onChange(
      ({ tenantID, subject }) => {
        this.invalidationsHeard += 1;
        this.operatorStandings.delete(standingKey(tenantID, subject));
      },
      () => {
        this.invalidationsHeard += 1;
        this.operatorStandings.clear();
      },
    );
  }

  /**
   * Throws 403 1004 (or 404 1062) unless the principal may act on the tenant;
   * otherwise charges the request to the tenant's budget (only callers
   * admitted spend it: 429 1071 past it) and returns the scope that
   * repository methods on its data require.
   */
  async require(principal: Principal, tenantID: string, requirement: AccessRequirement = {}): Promise<TenantScope> {
    await this.check(principal, tenantID, requirement);
    await this.quotas.chargeAdmittedTenant(tenantID);
    return grantTenantScope(tenantID);
  }

  /**
   * The check of `require` alone, for an access rule with steps after it (the
   * helpdesk connection): that rule charges the tenant's budget once its last
   * step passed (`RequestCharges.chargeAdmittedTenant`).
   */
  async check(principal: Principal, tenantID: string, requirement: AccessRequirement = {}): Promise<void> {
    const standing = await this.standingOf(principal, tenantID);
    if (standing === 'no-tenant') throw new AppException(requirement.tenantNotFoundIs404 ? 'TenantNotFound' : 'Forbidden');
    const allowed = requirement.ownerOnly ? standing === 'owner' : standing !== 'none';
    if (!allowed) throw new AppException('Forbidden');
  }

  /**
   * Forgets a tenant subject's standing at once, on every replica of every
   * app (after removing a membership, changing a role or removing a
   * connection): its Redis copy is deleted and every replica is told to drop
   * its in-process copy. Throws when Redis fails; a replica that missed the
   * message is not listening, and so reads no in-process copy.
   */
  async forget(tenantID: string, subjectID: string): Promise<void> {
    const normalizedTenantID = canonicalUuid(tenantID);
    this.operatorStandings.delete(standingKey(normalizedTenantID, subjectID));
    await this.redis.del(standingKey(normalizedTenantID, subjectID));
    await this.invalidations.publish({ tenantID: normalizedTenantID, subject: subjectID });
  }

  private async standingOf(principal: Principal, tenantID: string): Promise<Standing> {
    const normalizedTenantID = canonicalUuid(tenantID);
    if (principal.kind === 'pluginConnection' && principal.tenantID === normalizedTenantID) return 'installed';
    const subject = principal.kind === 'operator' ? `operator:${principal.operatorID}` : principal.kind === 'plugin' ? `plugin:${principal.pluginID}` : 'none';
    const key = standingKey(normalizedTenantID, subject);
    // In-process copies are trusted only while no invalidation can be missed.
    const keptHere = principal.kind === 'operator' && this.invalidations.listening;
    const heardBefore = this.invalidationsHeard;
    if (keptHere) {
      const local = this.operatorStandings.get(key, Date.now());
      if (local) return local;
    }
    const sharedReadAt = Date.now();
    const shared = await readRedisCopy(this.redis, key).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'standing cache unavailable, reading PostgreSQL');
      return undefined;
    });
    // A value that does not verify is a miss: the standing is read from PostgreSQL. So is one sealed
    // before the standing last changed (a copy written back): it was read from a membership since replaced.
    const entry = shared && this.seal.openEntry('standing', key, shared.value, sharedReadAt);
    const sealedAt = entry ? entry.expiresAtMs - STANDING_TTL_SECONDS * 1000 : undefined;
    const cached = entry && sealedAt !== undefined && this.invalidations.mayTrustCopy({ tenantID: normalizedTenantID, subject }, sealedAt) ? (entry.value as Standing) : undefined;
    if (cached !== undefined && STANDINGS.includes(cached)) {
      if (keptHere && shared?.expiresAtMs !== undefined && this.invalidationsHeard === heardBefore) this.operatorStandings.set(key, cached, shared.expiresAtMs);
      return cached;
    }
    const readAt = Date.now();
    const standing = await this.lookUp(principal, normalizedTenantID);
    // A standing changed while this lookup ran: the answer may be from before it, so it is not kept anywhere.
    if (this.invalidationsHeard !== heardBefore) return standing;
    if (this.settings.standingCopies === 'read-write') {
      await this.redis.set(key, this.seal.seal(key, standing, readAt + STANDING_TTL_SECONDS * 1000), 'EX', STANDING_TTL_SECONDS).catch(() => undefined);
    }
    if (keptHere) this.operatorStandings.set(key, standing, readAt + STANDING_TTL_SECONDS * 1000);
    return standing;
  }

  /** One query: tenant existence and the principal's standing in it. */
  private async lookUp(principal: Principal, tenantID: string): Promise<Standing> {
    if (principal.kind === 'operator') {
      const found = await this.reads.operatorStanding(tenantID, principal.operatorID);
      return found.tenantExists ? found.standing ?? 'none' : 'no-tenant';
    }
    if (principal.kind === 'plugin') {
      const found = await this.reads.pluginStanding(tenantID, principal.pluginID);
      return found.tenantExists ? (found.standing ? 'installed' : 'none') : 'no-tenant';
    }
    // A connection of another tenant: only whether this tenant exists is left to tell.
    return (await this.reads.tenantExists(tenantID)) ? 'none' : 'no-tenant';
  }
}
