/**
 * Proof that a tenant access check passed. Repository methods on tenant data
 * take a `TenantScope` instead of a bare tenant id, so they cannot be called
 * before the check: only `TenantAccessService.require` produces one, apart
 * from `trustedTenantScope` below. A literal or an `as` cast would be the only
 * other way, and lint refuses `as TenantScope`.
 */
import { canonicalUuid } from '@platform/http-common';

declare const checked: unique symbol;

export interface TenantScope {
  /** The tenant, lower-cased. */
  readonly tenantID: string;
  readonly [checked]: true;
}

/** Produces the scope; called by the access check and `trustedTenantScope` only. */
export function grantTenantScope(tenantID: string): TenantScope {
  return { tenantID: canonicalUuid(tenantID) } as TenantScope;
}

/**
 * The scope of a transport message or a background job: the app that sent
 * it checked the caller's access before sending (or the job was created by a
 * checked request), so the receiver acts within the tenant the message names.
 * Never use it for a tenant id that came from an HTTP request.
 */
export function trustedTenantScope(tenantID: string): TenantScope {
  return grantTenantScope(tenantID);
}
