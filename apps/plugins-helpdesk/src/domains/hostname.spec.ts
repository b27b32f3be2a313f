import { describe, expect, it } from 'vitest';
import { normalizeHostname } from './hostname';

const label63 = 'a'.repeat(63);
/** 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters. */
const hostname253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;

describe('normalizeHostname', () => {
  it('keeps an ordinary hostname as it is', () => {
    expect(normalizeHostname('ajuda.acme-atendimento.com.br')).toBe('ajuda.acme-atendimento.com.br');
  });

  it('lower-cases', () => {
    expect(normalizeHostname('Ajuda.ACME.com.BR')).toBe('ajuda.acme.com.br');
  });

  it('turns internationalised labels into punycode', () => {
    expect(normalizeHostname('suporte.açaí.com.br')).toBe('suporte.xn--aa-4iaz.com.br');
    expect(normalizeHostname('SUPORTE.AÇAÍ.com.br')).toBe('suporte.xn--aa-4iaz.com.br');
    expect(normalizeHostname('suporte.xn--aa-4iaz.com.br')).toBe('suporte.xn--aa-4iaz.com.br');
  });

  it('accepts 253 characters and refuses 254', () => {
    expect(hostname253).toHaveLength(253);
    expect(normalizeHostname(hostname253)).toBe(hostname253);
    expect(normalizeHostname(`a${hostname253}`)).toBeUndefined();
  });

  it('refuses a name longer than 253 characters once in punycode', () => {
    const accented = 'çãéíóúâêôàü';
    const label = (offset: number) => Array.from({ length: 40 }, (_, index) => accented[(index * 7 + offset) % accented.length]).join('');
    // Five labels of 40 accented letters: 211 characters as sent, 266 in punycode (51 per label).
    const unicode = [label(0), label(1), label(2), label(3), label(4), 'com', 'br'].join('.');
    expect([...unicode]).toHaveLength(211);
    expect(normalizeHostname(unicode)).toBeUndefined();
    expect(normalizeHostname([label(0), label(1), 'com', 'br'].join('.'))).toMatch(/^xn--[a-z0-9-]{47}\.xn--[a-z0-9-]{47}\.com\.br$/);
  });

  it.each([
    ['empty', ''],
    ['a single label', 'localhost'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com.br`],
    ['an empty label', 'ajuda..acme.com'],
    ['a trailing dot', 'ajuda.acme.com.'],
    ['a leading hyphen', '-ajuda.acme.com'],
    ['a trailing hyphen', 'ajuda-.acme.com'],
    ['an underscore', 'aju_da.acme.com'],
    ['a wildcard', '*.acme.com'],
    ['a space', 'ajuda acme.com'],
    ['percent-encoding', 'aj%75da.acme.com'],
    ['a port', 'ajuda.acme.com:443'],
    ['a path', 'ajuda.acme.com/x'],
    ['an IPv4 address', '192.168.0.10'],
    ['a full-width dot', 'ajuda。acme.com'],
  ])('refuses %s', (_, value) => {
    expect(normalizeHostname(value)).toBeUndefined();
  });

  it('refuses what is not a string', () => {
    expect(normalizeHostname(42)).toBeUndefined();
    expect(normalizeHostname(undefined)).toBeUndefined();
  });
});
