import { describe, expect, it } from 'vitest';
import { SignUpKeys } from './sign-up-keys';

/**
 * Values made by the SignUpKeys of the release before libs/keyring: a code
 * hash as it sits in Redis, and a code and an invitation token sealed in
 * mail jobs in PostgreSQL. They must keep matching and opening.
 */
const SECRET = 'sign-up-secret-of-the-release-before-keyring-0001';
const NEXT = 'sign-up-secret-taking-over-after-the-keyring-0002';
const STORED = {
  codeHash: '6cb5058c7f52b0d57cef121ee71f7a6bc2270d10c0d3203ccacbf8d3c4205eba',
  sealedCode: '9jVPuJujY6umLkO_eRsWCfazW2crHkO5rKS09Ex41MPGQw',
  sealedToken: 'wR5Sbc6YMQ6s5dbEGmrtRvrDvWO7eXm0GGzobiirYjcg7M9hx_wsCIyco6gT8TJvVXLdHGxXhRmVMnARaeSg',
};

describe('SignUpKeys', () => {
  it('hashes a code as the release before libs/keyring did, and opens what it sealed', () => {
    const keys = new SignUpKeys(SECRET);
    expect(keys.codeHash('ana@acme.com.br', '042917')).toBe(STORED.codeHash);
    expect(keys.unseal(STORED.sealedCode)).toBe('042917');
    expect(keys.unseal(STORED.sealedToken)).toBe('inv_3kQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });

  it('during a rotation, hashes new codes under the new secret, still matches codes and opens jobs of the previous one', () => {
    const rotating = new SignUpKeys({ current: NEXT, previous: SECRET });
    expect(rotating.codeHash('ana@acme.com.br', '042917')).not.toBe(STORED.codeHash);
    expect(rotating.codeHashes('ana@acme.com.br', '042917')).toEqual([rotating.codeHash('ana@acme.com.br', '042917'), STORED.codeHash]);
    expect(rotating.unseal(STORED.sealedCode)).toBe('042917');
    // A replica still at the first step (the new secret as previous) opens what one at the second seals.
    expect(new SignUpKeys({ current: SECRET, previous: NEXT }).unseal(rotating.seal('123456'))).toBe('123456');
    expect(() => new SignUpKeys(SECRET).unseal(rotating.seal('123456'))).toThrow();
  });

  it('binds a code hash to its address, and refuses a job sealed under a secret no longer configured, or tampered with', () => {
    const keys = new SignUpKeys(NEXT);
    expect(keys.codeHashes('bia@acme.com.br', '042917')).not.toContain(keys.codeHash('ana@acme.com.br', '042917'));
    expect(keys.codeHashes('ana@acme.com.br', '042917')).not.toContain(STORED.codeHash);
    expect(() => keys.unseal(STORED.sealedCode)).toThrow(/no configured SIGN_UP_SECRET opens/);
    const bytes = Buffer.from(new SignUpKeys(SECRET).seal('042917'), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(() => new SignUpKeys(SECRET).unseal(bytes.toString('base64url'))).toThrow();
    expect(() => new SignUpKeys(SECRET).unseal('c2hvcnQ')).toThrow();
  });
});
