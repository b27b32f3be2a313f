import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiIdempotent } from '@platform/http-common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Makes a create operation safe to retry with an `Idempotency-Key` header
 * (docs/idempotency.md): the first answer is kept and replayed. The route
 * hands `@IdempotencyClaim()` to its use case, which claims the key right after
 * its access check (IdempotencyKeyClaim).
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiIdempotent());
}
