import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The work running now: an HTTP request (its id, method and path), or a
 * transport message or job (the request id it carries). It follows the work
 * across `await`s, so a line logged while serving it says which request it
 * belongs to (AppLogger), and the code that sends a message, enqueues a job or
 * calls a provider passes the request id on without every caller handing it
 * down. One store for both: entering it once per request is the whole cost.
 */
export interface RequestInScope {
  id: string;
  method?: string;
  url?: string;
  /**
   * Who the work acts for, once authenticated (`operator:<id>`, `plugin:<id>`,
   * `pluginConnection:<id>`): the actor of the audit log, carried to other
   * apps and jobs beside the request id.
   */
  actor?: string;
  /**
   * Set once the request's access check on the tenant it acts on has passed
   * (recordTenantAccessGranted, called by libs/auth's tenant-access.service.ts
   * and plugins-helpdesk's helpdesk-access.service.ts): the request budgets
   * (libs/auth, request-quotas.ts) give the tenant its request back when it
   * was never granted (docs/security.md, Rate limits).
   */
  tenantAccessGranted?: boolean;
}

const scope = new AsyncLocalStorage<RequestInScope>();

/** The request being served now, if any. */
export function currentRequest(): RequestInScope | undefined {
  return scope.getStore();
}

export function currentRequestID(): string | undefined {
  return scope.getStore()?.id;
}

/** Runs `work` (and everything it starts) as part of `request` (a Fastify request qualifies). */
export function runInRequest<T>(request: RequestInScope, work: () => T): T {
  return scope.run(request, work);
}

/** The actor of the work running now (see RequestInScope.actor). */
export function currentActor(): string | undefined {
  return scope.getStore()?.actor;
}

/** Records who the current request acts for, once its credential is verified. Outside any request it does nothing. */
export function actAs(actor: string): void {
  const store = scope.getStore();
  if (store) store.actor = actor;
}

/** Records that the current request passed its tenant access check. Outside any request it does nothing. */
export function recordTenantAccessGranted(): void {
  const store = scope.getStore();
  if (store) store.tenantAccessGranted = true;
}

/** Runs `work` (and everything it starts) under `requestID` (and `actor`), carried by a message or job. */
export function runWithRequestID<T>(requestID: string, work: () => T, actor?: string): T {
  return scope.run(actor ? { id: requestID, actor } : { id: requestID }, work);
}

/** Runs `work` (and everything it starts) under no request id. */
export function runOutsideRequest<T>(work: () => T): T {
  return scope.exit(work);
}
