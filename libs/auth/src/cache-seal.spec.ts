import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CacheSeal } from './cache-seal';

const OLD = 'the-secret-being-retired-aaaaaaaaaaaaaaa';
const NEW = 'the-secret-taking-over-bbbbbbbbbbbbbbbbb';
const now = 1_700_000_000_000;

describe('CacheSeal', () => {
  it('opens what it sealed, under the same key name only, and counts every refusal', () => {
    const refused: string[] = [];
    const seal = new CacheSeal({ current: NEW }, (cache) => refused.push(cache));
    const sealed = seal.seal('auth:v2:standing:t:operator:a', 'member', now + 5_000);
    expect(seal.open('standing', 'auth:v2:standing:t:operator:a', sealed, now)).toBe('member');
    expect(seal.open('standing', 'auth:v2:standing:t:operator:b', sealed, now)).toBeUndefined();
    expect(seal.open('standing', 'auth:v2:standing:t:operator:a', sealed.replace(/member$/, 'owner'), now)).toBeUndefined();
    expect(seal.open('standing', 'auth:v2:standing:t:operator:a', sealed.replace(/^\d+/, String(now + 86_400_000)), now)).toBeUndefined();
    expect(seal.open('standing', 'auth:v2:standing:t:operator:a', 'owner', now)).toBeUndefined();
    expect(refused).toEqual(['standing', 'standing', 'standing', 'standing']);
  });

  it('refuses, uncounted, an entry past the expiry it was sealed with (a copy written back later)', () => {
    const refused: string[] = [];
    const seal = new CacheSeal({ current: NEW }, (cache) => refused.push(cache));
    const sealed = seal.seal('auth:v2:connection:c', '{}', now + 60_000);
    expect(seal.open('connection', 'auth:v2:connection:c', sealed, now + 60_000)).toBeUndefined();
    expect(refused).toEqual([]);
  });

  it('accepts entries sealed with the previous secret during a rotation, and none after it', () => {
    const before = new CacheSeal({ current: OLD }).seal('auth:v2:plugin:p', '{"tokenHash":"h"}', now + 60_000);
    expect(new CacheSeal({ current: NEW, previous: OLD }).open('plugin', 'auth:v2:plugin:p', before, now)).toBe('{"tokenHash":"h"}');
    expect(new CacheSeal({ current: NEW }).open('plugin', 'auth:v2:plugin:p', before, now)).toBeUndefined();
  });

  it('seals the bytes documented for an entry, so entries already in Redis from replicas still running keep opening', () => {
    const secret = 'clé-secrète-ünïcode-cccccccccccccccccccc';
    const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`auth:v2:connection:c\n${now + 60_000}\n{"live":true}`).digest('base64url');
    const written = `${now + 60_000}.${mac}.{"live":true}`;
    const seal = new CacheSeal({ current: secret });
    expect(seal.seal('auth:v2:connection:c', '{"live":true}', now + 60_000)).toBe(written);
    expect(seal.open('connection', 'auth:v2:connection:c', written, now)).toBe('{"live":true}');
    expect(new CacheSeal({ current: NEW, previous: secret }).open('connection', 'auth:v2:connection:c', written, now)).toBe('{"live":true}');
  });
});
