import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '@platform/errors';
import { actAs } from '@platform/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseAuthorizationHeader } from './authorization-header';
import { Authenticator } from './authenticator';
import { AuthProfile, Principal } from './principal';
import { RequestCharges } from './request-charges';

export const ACCEPTED_PROFILES = Symbol('ACCEPTED_PROFILES');

/** The principal as the audit log and idempotency keys name it: `operator:<id>`, `plugin:<id>` or `pluginConnection:<id>`. */
export function actorOf(principal: Principal): string {
  if (principal.kind === 'operator') return `operator:${principal.operatorID}`;
  if (principal.kind === 'plugin') return `plugin:${principal.pluginID}`;
  return `pluginConnection:${principal.pluginConnectionID}`;
}

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal; quotaCharged?: boolean };

/**
 * Steps 1 and 2 of the check order (docs/http-conventions.md): an empty tenantID
 * segment is 400 1001; then the credential must be present, valid and of a
 * profile the endpoint accepts, else 401 1003. The verified principal is kept
 * on the request, so nothing verifies the same credential twice. Then the
 * request is charged to the principal's and the tenant's budgets (429 1071
 * past them): after authentication, so that only known callers are counted,
 * and before validation and the access check, so that refused requests count too.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly quotas: RequestCharges,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    if ('tenantID' in params && (params.tenantID ?? '').trim() === '') throw new AppException('MissingTenantID');

    const accepted = this.reflector.getAllAndOverride<AuthProfile[]>(ACCEPTED_PROFILES, [context.getHandler(), context.getClass()]) ?? [];
    const credential = parseAuthorizationHeader(request.headers.authorization);
    if (!accepted.includes(credential.profile)) throw new AppException('Unauthorized');
    request.principal ??= await this.authenticator.authenticate(credential);
    actAs(actorOf(request.principal));
    if (!request.quotaCharged) {
      request.quotaCharged = true;
      await this.quotas.charge(request, context.switchToHttp().getResponse<FastifyReply>(), request.principal);
    }
    return true;
  }
}
