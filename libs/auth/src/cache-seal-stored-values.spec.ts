import { describe, expect, it } from 'vitest';
import { CacheSeal } from './cache-seal';

/**
 * Entries sealed by the CacheSeal of the release before libs/keyring, kept
 * byte for byte as it wrote them: entries already in Redis, and those
 * replicas still running that release write during a rolling deploy, must
 * keep opening, and what this release seals must open there.
 */
const SECRET = 'cache-secret-of-the-release-before-keyring-0001';
const UNICODE_SECRET = 'clé-de-cache-ünïcode-avant-le-trousseau-0002';
const EXPIRES_AT = 4_102_444_800_000;
const now = 1_764_180_000_000;
const WRITTEN = {
  standing: '4102444800000.y8R7IYaKa7VjGvEyXc33sbD84DfhhAFSF8Y1HlMcsrU.member',
  connection: '4102444800000.sk2TZawbNLAkweRBARuMgKOupQ5YpZ6pKj5EguLGZfY.{"tokenHash":"h","tenantID":"t1"}',
  /** Sealed during a rotation, CACHE_SECRET the Unicode one and CACHE_SECRET_PREVIOUS the other. */
  hostname: '4102444800000.m3Y5TWXT-j7XjpZEofbgnETuBvKJb6NR53ScbQUP_uc.{"helpCenterID":"hc1"}',
};

describe('CacheSeal and the entries of the release before libs/keyring', () => {
  it('opens them, and seals the same bytes they were written with', () => {
    const seal = new CacheSeal({ current: SECRET });
    expect(seal.open('standing', 'auth:v2:standing:t1:operator:o1', WRITTEN.standing, now)).toBe('member');
    expect(seal.seal('auth:v2:standing:t1:operator:o1', 'member', EXPIRES_AT)).toBe(WRITTEN.standing);
    const unicode = new CacheSeal({ current: UNICODE_SECRET });
    expect(unicode.open('connection', 'auth:v2:connection:c1', WRITTEN.connection, now)).toBe('{"tokenHash":"h","tenantID":"t1"}');
    expect(unicode.seal('auth:v2:connection:c1', '{"tokenHash":"h","tenantID":"t1"}', EXPIRES_AT)).toBe(WRITTEN.connection);
  });

  it('opens them under the previous secret, and refuses them once that secret is dropped', () => {
    const refused: string[] = [];
    const rotated = new CacheSeal({ current: SECRET, previous: UNICODE_SECRET }, (cache) => refused.push(cache));
    expect(rotated.open('hostname', 'helpdesk:v2:hostname:help.acme.example', WRITTEN.hostname, now)).toBe('{"helpCenterID":"hc1"}');
    expect(new CacheSeal({ current: SECRET }, (cache) => refused.push(cache)).open('hostname', 'helpdesk:v2:hostname:help.acme.example', WRITTEN.hostname, now)).toBeUndefined();
    expect(refused).toEqual(['hostname']);
  });
});
