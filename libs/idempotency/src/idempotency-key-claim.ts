import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/**
 * The claim of a request's Idempotency-Key (docs/idempotency.md). The use case
 * of an `@Idempotent()` route makes it as its step right after the access
 * check, so what the claim answers (a replay, a key in use or reused) never
 * reaches a caller who would not pass the check, and the action runs only
 * once the key is the request's own.
 */
export interface IdempotencyKeyClaim {
  /** Claims the key; throws what the request must answer instead of acting. */
  claimKey(): Promise<void>;
}

/** A request without an Idempotency-Key: nothing to claim. */
export const NO_IDEMPOTENCY_KEY: IdempotencyKeyClaim = { claimKey: async () => undefined };

const KEY_CLAIM = Symbol('idempotencyKeyClaim');

interface RequestWithKeyClaim {
  [KEY_CLAIM]?: IdempotencyKeyClaim;
}

/** Called by IdempotencyInterceptor for a request that sent a key. */
export function attachKeyClaim(request: object, claim: IdempotencyKeyClaim): void {
  (request as RequestWithKeyClaim)[KEY_CLAIM] = claim;
}

/** The request's key claim (NO_IDEMPOTENCY_KEY without a key). */
export function keyClaimOf(request: object): IdempotencyKeyClaim {
  return (request as RequestWithKeyClaim)[KEY_CLAIM] ?? NO_IDEMPOTENCY_KEY;
}

/** The request's key claim, for the route to hand to its use case: `@IdempotencyClaim() idempotency: IdempotencyKeyClaim`. */
export const IdempotencyClaim = createParamDecorator((_data: unknown, context: ExecutionContext): IdempotencyKeyClaim => keyClaimOf(context.switchToHttp().getRequest<object>()));
