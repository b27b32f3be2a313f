import { describe, expect, it } from 'vitest';
import { InvalidAllowEntry, OutboundAllowList } from './allow-list';

describe('OutboundAllowList', () => {
  it('allows nothing when empty (the default)', () => {
    const list = OutboundAllowList.parse('');
    expect(list.allowsAddress('127.0.0.1', 80)).toBe(false);
    expect(list.allowsHost('localhost', 80)).toBe(false);
  });

  it('matches addresses and CIDRs, on any port or the one given', () => {
    const list = OutboundAllowList.parse(' 127.0.0.1:4015 , 10.0.0.0/8, [::1]:4016, fd00::/8, [fe80::/10]:443 ');
    expect(list.allowsAddress('127.0.0.1', 4015)).toBe(true);
    expect(list.allowsAddress('127.0.0.1', 4016)).toBe(false);
    expect(list.allowsAddress('127.0.0.2', 4015)).toBe(false);
    expect(list.allowsAddress('10.20.30.40', 1)).toBe(true);
    expect(list.allowsAddress('::ffff:10.20.30.40', 1)).toBe(true);
    expect(list.allowsAddress('11.0.0.1', 1)).toBe(false);
    expect(list.allowsAddress('::1', 4016)).toBe(true);
    expect(list.allowsAddress('::1', 4015)).toBe(false);
    expect(list.allowsAddress('fd12::1', 8080)).toBe(true);
    expect(list.allowsAddress('fe80::1', 443)).toBe(true);
    expect(list.allowsAddress('fe80::1', 80)).toBe(false);
  });

  it('matches host names without case or trailing dot, on any port or the one given', () => {
    const list = OutboundAllowList.parse('traces.internal,Sandbox.Local:4015');
    expect(list.allowsHost('TRACES.internal.', 443)).toBe(true);
    expect(list.allowsHost('sandbox.local', 4015)).toBe(true);
    expect(list.allowsHost('sandbox.local', 4016)).toBe(false);
    expect(list.allowsHost('evil.traces.internal', 443)).toBe(false);
    expect(list.allowsAddress('127.0.0.1', 4015)).toBe(false);
  });

  it.each(['127.0.0.1:0', 'host:99999', 'host:http', '10.0.0.0/33', '[not-v6]:80', 'a b', 'http://x', '::1:4015x'])('refuses the malformed entry %s', (entry) => {
    expect(() => OutboundAllowList.parse(entry)).toThrow(InvalidAllowEntry);
  });
});
