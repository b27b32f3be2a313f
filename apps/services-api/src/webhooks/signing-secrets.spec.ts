import { describe, expect, it } from 'vitest';
import { WebhookSigningSecrets } from './signing-secrets';

const endpointID = '6f1c1a52-93a4-4c47-a5b7-8f0d7d0e4a11';
const otherEndpointID = '0e9c51b2-1a7b-4d7b-9f43-2b5c0c7d9e30';

describe('WebhookSigningSecrets', () => {
  const secrets = new WebhookSigningSecrets({ current: 'test-webhook-secrets-key-0123456789abcdef' });

  it('makes whsec_ secrets of 32 random bytes, each different', () => {
    const first = secrets.generate();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(secrets.generate()).not.toBe(first);
  });

  it('opens what it sealed for the same endpoint, and the sealed form does not contain the secret', () => {
    const secret = secrets.generate();
    const sealed = secrets.seal(endpointID, secret);
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    expect(secrets.open(endpointID, sealed)).toBe(secret);
  });

  it("does not open a sealed secret copied to another endpoint, nor a tampered one", () => {
    const sealed = secrets.seal(endpointID, secrets.generate());
    expect(secrets.open(otherEndpointID, sealed)).toBeUndefined();
    const [version, iv, ciphertext, tag] = sealed.split('.');
    const flipped = `${ciphertext[0] === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    expect(secrets.open(endpointID, [version, iv, flipped, tag].join('.'))).toBeUndefined();
    expect(secrets.open(endpointID, 'whsec_not-sealed')).toBeUndefined();
  });

  it('opens secrets sealed under the previous key during a key rotation, and seals under the new one', () => {
    const before = new WebhookSigningSecrets({ current: 'test-old-webhook-secrets-key-0123456789' });
    const secret = before.generate();
    const sealedBefore = before.seal(endpointID, secret);
    const rotating = new WebhookSigningSecrets({ current: 'test-new-webhook-secrets-key-0123456789', previous: 'test-old-webhook-secrets-key-0123456789' });
    expect(rotating.open(endpointID, sealedBefore)).toBe(secret);
    const after = new WebhookSigningSecrets({ current: 'test-new-webhook-secrets-key-0123456789' });
    expect(after.open(endpointID, rotating.seal(endpointID, secret))).toBe(secret);
    expect(after.open(endpointID, sealedBefore)).toBeUndefined();
  });
});
