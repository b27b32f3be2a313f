import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiHeader } from '@nestjs/swagger';
import { ErrorKey } from '@platform/errors';

/** The OpenAPI extension carrying an operation's own error keys until the document is completed. */
export const ERROR_KEYS_EXTENSION = 'x-error-keys';

/**
 * Declares the errors an operation answers by its own rules (the errors its
 * OpenAPI document lists beside the common ones), by catalog key: `@ApiErrors('Forbidden', 'TenantNotFound')`.
 *
 * The errors every operation of a kind answers are not listed here: the
 * document adds them by rule (error-responses.ts), e.g. 401 1003 for a guarded
 * operation, 400 1002 for one with parameters, 413 1913 for one with a body.
 */
export function ApiErrors(...keys: ErrorKey[]): MethodDecorator & ClassDecorator {
  return ApiExtension(ERROR_KEYS_EXTENSION, keys);
}

/** The OpenAPI extension marking an operation that reaches no dependency until the document is completed. */
export const NO_DEPENDENCY_EXTENSION = 'x-no-dependency';

/**
 * Marks an operation that answers from the process alone (no PostgreSQL,
 * Redis, other app or provider), so its document does not list 503 5903:
 * the JWKS, a handshake that compares a configured token. (The liveness
 * probe reaches nothing either, but answers 503 5903 while the app shuts down.)
 */
export function ApiNoDependency(): MethodDecorator {
  return ApiExtension(NO_DEPENDENCY_EXTENSION, true);
}

/** The OpenAPI extension marking an operation that takes an `Idempotency-Key` until the document is completed. */
export const IDEMPOTENT_EXTENSION = 'x-idempotent';

/**
 * Documents an operation that takes an `Idempotency-Key` (docs/idempotency.md):
 * the header, and, once the document is completed (error-responses.ts), the
 * `Idempotent-Replayed` header of its answers and 422 1980 and 409 1981.
 */
export function ApiIdempotent(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry: the first answer (a success or a client error other than 408 and 429) is kept 24 hours by default ' +
        'and replayed with Idempotent-Replayed: true to the same caller sending the same key and parameters; other parameters: 422 1980; ' +
        'while the first request runs: 409 1981 with Retry-After. 1-255 printable ASCII characters, e.g. a UUID (else 400 1002).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[ -~]{1,255}$' },
    }),
    ApiExtension(IDEMPOTENT_EXTENSION, true),
  );
}
