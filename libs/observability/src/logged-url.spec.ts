import { describe, expect, it } from 'vitest';
import { loggedUrl } from './logged-url';

describe('loggedUrl', () => {
  it('keeps a URL without secrets byte for byte', () => {
    for (const url of ['/v1/tenants', '/v1/x?page=2&search=a%20b&&flag', '/x?%zz=1&a=%E0%A4%A']) expect(loggedUrl(url)).toBe(url);
  });
  it('redacts secret-named parameters, percent-encoded names and ones without a value included', () => {
    expect(loggedUrl('/hook?hub.verify_token=abc&hub.challenge=9')).toBe('/hook?hub.verify_token=[redacted]&hub.challenge=9');
    expect(loggedUrl('/x?hub%2Everify%5Ftoken=abc&clientSecret&page=1')).toBe('/x?hub%2Everify%5Ftoken=[redacted]&clientSecret=[redacted]&page=1');
    expect(loggedUrl('/x?Password=p&password=q')).toBe('/x?Password=[redacted]&password=[redacted]');
  });
});
