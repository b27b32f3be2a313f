import { describe, expect, it } from 'vitest';
import { MessageAuthenticator } from './message-authentication';

const KEY = 'k'.repeat(32);
const channel = 'production:operator-tokens.issue';
const packet = { pattern: 'operator-tokens.issue', id: 'a1', data: { operatorID: 'o1' }, metadata: { 'x-actor': 'operator:o1', 'x-request-id': 'r1' } };

describe('MessageAuthenticator', () => {
  it('opens what it sealed, and the seal is the exact text that is sent', () => {
    const authenticator = new MessageAuthenticator({ secret: KEY, maxAgeMs: 5_000 });
    const sealed = authenticator.seal('request', channel, packet);
    expect(JSON.parse(sealed.signed)).toMatchObject({ direction: 'request', channel, packet });
    expect(authenticator.open('request', channel, JSON.parse(JSON.stringify(sealed)))).toEqual({ ok: true, packet });
  });

  it.each([
    ['x-actor', (signed: string) => signed.replace('operator:o1', 'operator:o2')],
    ['x-request-id', (signed: string) => signed.replace('"r1"', '"r2"')],
    ['the id', (signed: string) => signed.replace('"a1"', '"a2"')],
    ['the data', (signed: string) => signed.replace('"o1"}', '"o3"}')],
    ['the signing time', (signed: string) => signed.replace(/"signedAt":\d+/, `"signedAt":${Date.now()}`)],
  ])('refuses a message whose %s changed after signing', (_field, change) => {
    const authenticator = new MessageAuthenticator({ secret: KEY, maxAgeMs: 5_000 }, () => 1_000);
    const sealed = authenticator.seal('request', channel, packet);
    const changed = change(sealed.signed);
    expect(changed).not.toBe(sealed.signed);
    expect(authenticator.open('request', channel, { ...sealed, signed: changed })).toEqual({ ok: false, reason: 'bad_mac' });
  });

  it('refuses a message signed too long ago or too far ahead, within the configured age either way', () => {
    let now = 100_000;
    const authenticator = new MessageAuthenticator({ secret: KEY, maxAgeMs: 5_000 }, () => now);
    const sealed = authenticator.seal('request', channel, packet);
    now += 5_000;
    expect(authenticator.open('request', channel, sealed).ok).toBe(true);
    now += 1;
    expect(authenticator.open('request', channel, sealed)).toEqual({ ok: false, reason: 'stale' });
    now = 100_000 - 5_001;
    expect(authenticator.open('request', channel, sealed)).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses what is not a seal at all', () => {
    const authenticator = new MessageAuthenticator({ secret: KEY, maxAgeMs: 5_000 });
    for (const message of [packet, 'text', null, { signed: 1, mac: 'x' }]) expect(authenticator.open('request', channel, message)).toEqual({ ok: false, reason: 'unsigned' });
  });

  it('verifies with the accepted key too, and signs with the current one only', () => {
    const next = 'n'.repeat(32);
    const sealedWithNext = new MessageAuthenticator({ secret: next, maxAgeMs: 5_000 }).seal('reply', channel, packet);
    expect(new MessageAuthenticator({ secret: KEY, acceptedSecret: next, maxAgeMs: 5_000 }).open('reply', channel, sealedWithNext).ok).toBe(true);
    expect(new MessageAuthenticator({ secret: KEY, maxAgeMs: 5_000 }).open('reply', channel, sealedWithNext)).toEqual({ ok: false, reason: 'bad_mac' });
  });
});
