import { describe, expect, it } from 'vitest';
import { WebhookSigningSecrets } from './signing-secrets';

/**
 * Signing secrets sealed by the WebhookSigningSecrets of the release before
 * libs/keyring, as they sit in PostgreSQL: they must keep opening, and keep
 * being refused where they were refused.
 */
const KEY = 'webhook-secrets-key-of-the-release-before-keyring-1';
const NEXT = 'webhook-secrets-key-taking-over-after-keyring-0002';
const endpointID = '6f1c1a52-93a4-4c47-a5b7-8f0d7d0e4a11';
const otherEndpointID = '0e9c51b2-1a7b-4d7b-9f43-2b5c0c7d9e30';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/OoM1Hi0HcE=';
const STORED = 'v1.stHr0dcqMl-okAne.62_EiHhtS3DdzanBaCJ3zMhiTl40u5RHOIQkvxJ7e3poYT1LZ1-8kEW2m6LY9HuYNFk.-ZMwc6PzIAeFptwn4rIH_Q';
/** Sealed during a rotation: WEBHOOK_SECRETS_KEY the next key, WEBHOOK_SECRETS_KEY_PREVIOUS the old one. */
const STORED_DURING_ROTATION = 'v1.wAH21WqeyjueZgBg.D2W__CMbVCnRAY-crkOwXgCKr9XUb_AeD2FAfhDgqzZJyrFcnFTYacHF9HtkK-maO6I.tyCVtFChqM-lUdSO0aOOFQ';

describe('WebhookSigningSecrets and the secrets stored by the release before libs/keyring', () => {
  it('opens them for their endpoint only', () => {
    const secrets = new WebhookSigningSecrets({ current: KEY });
    expect(secrets.open(endpointID, STORED)).toBe(SECRET);
    expect(secrets.open(otherEndpointID, STORED)).toBeUndefined();
  });

  it('opens them under the previous key, and not once it is dropped', () => {
    expect(new WebhookSigningSecrets({ current: NEXT, previous: KEY }).open(endpointID, STORED)).toBe(SECRET);
    expect(new WebhookSigningSecrets({ current: NEXT }).open(endpointID, STORED_DURING_ROTATION)).toBe(SECRET);
    expect(new WebhookSigningSecrets({ current: KEY, previous: NEXT }).open(endpointID, STORED_DURING_ROTATION)).toBe(SECRET);
    expect(new WebhookSigningSecrets({ current: KEY }).open(endpointID, STORED_DURING_ROTATION)).toBeUndefined();
  });
});
