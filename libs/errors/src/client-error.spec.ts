import { describe, expect, it } from 'vitest';
import { AppException } from './app-exception';
import { rawErrorResponse } from './client-error';

describe('rawErrorResponse', () => {
  it('writes the Retry-After the exception carries, in whole seconds, as the REST answers do', () => {
    const head = rawErrorResponse(new AppException('TooManyRequests', { retryAfterSeconds: 1.2 })).split('\r\n\r\n')[0];
    expect(head).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(head.split('\r\n')).toContain('Retry-After: 2');
  });

  it('writes none when the exception carries none', () => {
    expect(rawErrorResponse(new AppException('RouteNotFound'))).not.toMatch(/Retry-After/i);
  });
});
