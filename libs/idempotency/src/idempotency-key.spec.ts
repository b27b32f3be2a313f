import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf } from './idempotency-key';

describe('idempotencyKeyOf', () => {
  it('is undefined without the header: the request is not idempotent', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it.each(['a', '0b7c5c1e-3f0a-4c55-9a55-2e4f7f0d1a11', 'k'.repeat(255), ' spaces and ~symbols! '])('accepts %j', (key) => {
    expect(idempotencyKeyOf(key)).toBe(key);
  });

  it.each([['empty', ''], ['too long', 'k'.repeat(256)], ['non-ASCII', 'chave-ç'], ['control character', 'a\tb'], ['sent twice', ['a', 'b']]])(
    'refuses a key %s with 400 1002 naming the header',
    (_, key) => {
      let thrown: unknown;
      try {
        idempotencyKeyOf(key);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppException);
      expect((thrown as AppException).toBody()).toEqual({
        statusCode: 400,
        error: 'RequestValidationError',
        error_code: 1002,
        message: 'Invalid request data.',
        fields: [{ field: 'idempotency-key', received: typeof key === 'string' ? key : JSON.stringify(key), allowed: '1-255 printable ASCII characters' }],
      });
    },
  );
});
