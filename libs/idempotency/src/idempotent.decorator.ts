import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiIdempotent } from '@platform/http-common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Makes a create operation safe to retry with an `Idempotency-Key` header
 * (docs/idempotency.md): the first answer is kept and replayed. The route's
 * access check must run through TenantAccessService (or call
 * `accessGranted()`), which is where the key is claimed.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiIdempotent());
}
