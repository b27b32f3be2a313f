import { describe, expect, it } from 'vitest';
import { AppException } from './app-exception';

describe('AppException', () => {
  it('keeps the stack of a server-side failure (5xx), which gets logged', () => {
    expect(new AppException('InternalServiceUnavailable').stack).toMatch(/\n\s+at /);
  });

  it('captures no stack for a client error (4xx), an answer nothing logs', () => {
    const refused = new AppException('DomainRefreshThrottled', { retryAfterSeconds: 3 });
    expect(refused.stack).not.toMatch(/\n\s+at /);
    expect(refused.toBody()).toMatchObject({ statusCode: 429, error_code: 1121 });
  });

  it('leaves the process-wide stack trace limit as it was', () => {
    const before = Error.stackTraceLimit;
    new AppException('Forbidden');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('after').stack).toMatch(/\n\s+at /);
  });
});
