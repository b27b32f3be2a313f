import { describe, expect, it } from 'vitest';
import { domainOf, isOperatorEmail, normaliseEmail } from './email-address';

describe('the e-mail pattern of the API (docs/sign-up.md, Addresses)', () => {
  it.each(['ana@acme.com.br', 'ana.souza+sac@acme-atendimento.com', "o'neil@example.co", 'a@b.io', ' Ana@Acme.COM ', 'a.@acme.com'])('accepts %j', (email) => {
    expect(isOperatorEmail(email)).toBe(true);
  });

  it.each([
    '.ana@acme.com',
    'ana..souza@acme.com',
    'ana@acme',
    'ana@acme.c',
    'ana@acme.c0m',
    'ana@acme..com',
    'ana@-acme.com',
    'ana@acme-.com',
    'ana acme@acme.com',
    'ana@acme.com.',
    '@acme.com',
    'ana@',
    `${'a'.repeat(65)}@acme.com`,
    `ana@${'a'.repeat(250)}.com`,
    42,
    null,
  ])('refuses %j', (email) => {
    expect(isOperatorEmail(email)).toBe(false);
  });

  it('normalises by trimming and lower-casing', () => {
    expect(normaliseEmail('  Ana.Souza@ACME.com.BR\t')).toBe('ana.souza@acme.com.br');
    expect(domainOf('ana@acme.com.br')).toBe('acme.com.br');
  });
});
