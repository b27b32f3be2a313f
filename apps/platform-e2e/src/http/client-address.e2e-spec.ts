import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * Which address the per-address limits count, seen through sign-in's per-IP
 * limit (3 attempts here): the 4th attempt from one address is 429.
 */
const LIMIT = { SIGN_IN_ATTEMPTS_PER_IP: '3', SIGN_IN_WINDOW_SECONDS: '60' };

function signInFrom(platform: TestPlatform, forwardedFor: string) {
  return platform.api.core.POST('/v1/operators/sign-in', {
    body: { operatorEmail: `nobody-${Math.random()}@acme-support.com.br`, password: 'wrong' },
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

async function statusesFrom(platform: TestPlatform, forwardedFor: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const value of forwardedFor) statuses.push((await signInFrom(platform, value)).response.status);
  return statuses;
}

describe('client address with no trusted proxy (the default)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'], env: LIMIT });
  });
  afterAll(() => platform.close());

  it('is the socket peer: a forged X-Forwarded-For does not change the limit bucket', async () => {
    const statuses = await statusesFrom(platform, ['198.51.100.1', '198.51.100.2', '203.0.113.9, 198.51.100.3', '198.51.100.4']);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await signInFrom(platform, '192.0.2.200');
    expect(singleError(limited.error).error_code).toBe(1071);
  });
});

describe('client address behind a proxy on loopback (TRUST_PROXY=127.0.0.1)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'], env: { ...LIMIT, TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => platform.close());

  it('is the right-most hop the proxy does not vouch for, whatever the client wrote to the left of it', async () => {
    const forged = ['1.1.1.1, 198.51.100.7', '2.2.2.2, 198.51.100.7', '3.3.3.3, 4.4.4.4, 198.51.100.7', '5.5.5.5, 198.51.100.7'];
    expect(await statusesFrom(platform, forged)).toEqual([401, 401, 401, 429]);
    // Another right-most hop is another client, with a bucket of its own.
    expect(await statusesFrom(platform, ['198.51.100.7, 198.51.100.8'])).toEqual([401]);
  });

  it('groups IPv6 clients by /64, and an IPv4-mapped address with its IPv4 address', async () => {
    expect(await statusesFrom(platform, ['2001:db8:1:2::1', '2001:db8:1:2::ffff', '2001:db8:1:2:abcd::9', '2001:db8:1:2::2'])).toEqual([401, 401, 401, 429]);
    expect(await statusesFrom(platform, ['2001:db8:1:3::1'])).toEqual([401]);
    expect(await statusesFrom(platform, ['192.0.2.44', '::ffff:192.0.2.44', '192.0.2.44', '::ffff:c000:22c'])).toEqual([401, 401, 401, 429]);
  });

  it('counts a hop written with a port (ip:port, [v6]:port) as its address: one client is one client', async () => {
    expect(await statusesFrom(platform, ['198.51.100.77:40001', '198.51.100.77:40002', '198.51.100.77', '198.51.100.77:40004'])).toEqual([401, 401, 401, 429]);
    expect(await statusesFrom(platform, ['[2001:db8:7:7::1]:40001', '[2001:db8:7:7::2]:40002', '2001:db8:7:7::3', '[2001:db8:7:7::4]'])).toEqual([401, 401, 401, 429]);
  });
});
