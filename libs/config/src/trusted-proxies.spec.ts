import { describe, expect, it } from 'vitest';
import { BaseConfig } from './base.config';
import { ConfigurationError, loadConfig } from './load-config';
import { parseTrustedProxies } from './trusted-proxies';

const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform', REDIS_URL: 'redis://127.0.0.1:6379' };

function bootProblems(trustProxy: string): string[] {
  try {
    loadConfig(BaseConfig, { ...env, TRUST_PROXY: trustProxy });
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
}

describe('parseTrustedProxies', () => {
  it('trusts no proxy when unset, empty or 0: the client is the socket peer', () => {
    expect(parseTrustedProxies(undefined)).toBe(false);
    expect(parseTrustedProxies('  ')).toBe(false);
    expect(parseTrustedProxies('0')).toBe(false);
  });

  it('takes a hop count up to 10', () => {
    expect(parseTrustedProxies('1')).toBe(1);
    expect(parseTrustedProxies('10')).toBe(10);
    expect(parseTrustedProxies('11')).toBeUndefined();
  });

  it('takes addresses, CIDRs and the loopback, linklocal and uniquelocal names, trimmed and lower-cased', () => {
    expect(parseTrustedProxies('10.0.0.0/8, 192.168.1.7 ,FD00::/8,::1,Loopback,linklocal,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
      'loopback',
      'linklocal',
      'uniquelocal',
    ]);
  });

  it.each(['true', 'TRUE', 'yes', '10.0.0.0/33', '10.0.0.0/255.0.0.0', '300.1.1.1', '10.0.0.1,', '2001:db8::/129', '-1', '1.5', 'example.com', '0.0.0.0/0', '::/0', '10.0.0.0/8,0.0.0.0/0'])(
    'refuses %j',
    (value) => {
      expect(parseTrustedProxies(value)).toBeUndefined();
    },
  );
});

describe('TRUST_PROXY at boot', () => {
  it('refuses true with an error that names the variable and says why', () => {
    expect(bootProblems('true')).toEqual([expect.stringMatching(/^TRUST_PROXY is malformed: must be a hop count .*never "true", which lets any client choose its own address/)]);
  });

  it('accepts a list and leaves it for the HTTP server', () => {
    expect(loadConfig(BaseConfig, { ...env, TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
    expect(loadConfig(BaseConfig, env).TRUST_PROXY).toBeUndefined();
  });
});
