import { Logger } from '@nestjs/common';
import { AppException } from '@platform/errors';

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
