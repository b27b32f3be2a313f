import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy';

describe('the password policy', () => {
  it.each(['correct horse battery', 'Abc!2345678', 'ç'.repeat(36)])('accepts %j', (password) => {
    expect(passwordProblem(password, 'ana@acme.com')).toBe(false);
  });

  it.each([
    ['shorter than 10 characters', 'abc!23456'],
    ['longer than 64 characters', 'a'.repeat(65)],
    ['more than 72 bytes', 'ç'.repeat(37)],
    ['on the blocklist, whatever the case', 'QwertyUiop'],
    ['the address', 'Ana.Souza@acme.com'],
    ['the local part of the address', 'ana.souza'],
  ])('refuses one %s', (_, password) => {
    expect(passwordProblem(password, ' ana.souza@ACME.com')).toBe(true);
  });
});
