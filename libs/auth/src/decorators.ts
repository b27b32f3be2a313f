import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ACCEPTED_PROFILES, AuthenticatedRequest, AuthGuard } from './auth.guard';
import { AuthProfile, Principal } from './principal';

const SECURITY_SCHEME: Record<AuthProfile, string> = {
  operator: 'operator',
  plugin: 'plugin',
  pluginConnection: 'pluginConnection',
};

/**
 * Declares which Authorization profiles an endpoint accepts and guards it.
 * `@Auth('operator')`, `@Auth('operator', 'plugin', 'pluginConnection')`.
 */
export function Auth(...profiles: [AuthProfile, ...AuthProfile[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCEPTED_PROFILES, profiles),
    UseGuards(AuthGuard),
    ...profiles.map((profile) => ApiSecurity(SECURITY_SCHEME[profile])),
  );
}

/** The verified caller of an endpoint guarded by `@Auth`. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on an endpoint without @Auth');
  return principal;
});
