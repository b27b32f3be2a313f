import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, whatever their spelling', () => {
    const key = clientAddressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientAddressKey('2001:db8:1:2:a:b:c:d')).toBe(key);
  });

  it('gives neighbouring /64s counters of their own', () => {
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientAddressKey('::1')).toBe('::/64');
  });

  it('drops the port a proxy wrote after a hop: one client is one client', () => {
    expect(clientAddressKey('198.51.100.77:40001')).toBe('198.51.100.77');
    expect(clientAddressKey('198.51.100.77:40002')).toBe('198.51.100.77');
    expect(clientAddressKey('[2001:db8:1:2::1]:40001')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('[2001:db8:1:2::9]')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('[::ffff:203.0.113.7]:443')).toBe('203.0.113.7');
  });

  it('keeps what is not an address as given, so it still counts', () => {
    expect(clientAddressKey('')).toBe('');
    expect(clientAddressKey(undefined)).toBe('');
    expect(clientAddressKey('not-an-ip')).toBe('not-an-ip');
  });
});
