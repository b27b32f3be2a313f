import { describe, expect, it } from 'vitest';
import { AppException } from './app-exception';
import { isSecretField, redactSecrets } from './secret-fields';

describe('secret fields', () => {
  it.each(['password', 'newPassword', 'invitationToken', 'hub.verify_token', 'clientSecret', 'passwordHash', 'body.token_hash'])('%s is secret', (field) =>
    expect(isSecretField(field)).toBe(true),
  );
  it.each(['operatorEmail', 'emailVerificationCode', 'idempotency-key', 'passwordPolicy.minLength', 'tokens.count', 'campaignModelName'])('%s is not', (field) =>
    expect(isSecretField(field)).toBe(false),
  );

  it('a 1002 names a secret field without the value it was sent with', () => {
    const refusal = AppException.validation([
      { field: 'password', received: 'hunter2', allowed: 'string of 10-64 characters' },
      { field: 'operatorEmail', received: 'x', allowed: 'e-mail address' },
    ]);
    expect(refusal.toBody().fields).toEqual([
      { field: 'password', allowed: 'string of 10-64 characters' },
      { field: 'operatorEmail', received: 'x', allowed: 'e-mail address' },
    ]);
  });

  it('redacts secret-named keys at any depth, leaving the input as it was', () => {
    const input = { a: 1, passwordHash: 'h', nested: [{ tokenHash: 't', keep: 'k' }] };
    expect(redactSecrets(input)).toEqual({ a: 1, passwordHash: '[redacted]', nested: [{ tokenHash: '[redacted]', keep: 'k' }] });
    expect(input.passwordHash).toBe('h');
  });
});
