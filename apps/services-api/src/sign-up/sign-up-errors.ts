import { Logger } from '@nestjs/common';
import { AppException, ErrorKey } from '@platform/errors';

/** 429 1071, with the seconds after which asking again can succeed (sent as Retry-After). */
export function tooManyRequests(retryAfterSeconds: number): AppException {
  return new AppException('TooManyRequests', { retryAfterSeconds });
}

const logger = new Logger('SignUp');

/**
 * Runs a step that needs the verification store (Redis) or the job queue;
 * if that infrastructure fails, the request ends in 503 5016. Errors of our
 * own catalog pass through untouched.
 */
export async function orUnavailable<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppException) throw error;
    logger.error({ err: error instanceof Error ? error : new Error(String(error)), step: what }, 'sign-up infrastructure unavailable');
    throw new AppException('EmailVerificationUnavailable', { cause: error });
  }
}

/**
 * Runs a request to core-tenants. When the transport fails or core-tenants
 * does not answer in time, the request ends as it did when these tables were
 * written here and PostgreSQL was unreachable: 503 `unavailable` (5903 unless
 * the step said otherwise). Answers of core-tenants' own catalog pass through.
 */
export async function fromCoreTenants<T>(step: () => Promise<T>, unavailable: ErrorKey = 'InternalServiceUnavailable'): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppException && (error.key === 'InternalServiceUnavailable' || error.key === 'InternalServiceTimeout')) {
      throw new AppException(unavailable, { cause: error });
    }
    throw error;
  }
}
