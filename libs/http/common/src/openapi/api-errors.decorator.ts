import { ApiExtension } from '@nestjs/swagger';
import { ErrorKey } from '@platform/errors';

/** The OpenAPI extension carrying an operation's own error keys until the document is completed. */
export const ERROR_KEYS_EXTENSION = 'x-error-keys';

/**
 * Declares the errors an operation answers by its own rules (its SPEC.md
 * rows), by catalog key: `@ApiErrors('Forbidden', 'TenantNotFound')`.
 *
 * The errors every operation of a kind answers are not listed here: the
 * document adds them by rule (error-responses.ts), e.g. 401 1003 for a guarded
 * operation, 400 1002 for one with parameters, 413 1913 for one with a body.
 */
export function ApiErrors(...keys: ErrorKey[]): MethodDecorator & ClassDecorator {
  return ApiExtension(ERROR_KEYS_EXTENSION, keys);
}
