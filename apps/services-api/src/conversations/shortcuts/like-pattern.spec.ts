import { describe, expect, it } from 'vitest';
import { containsPattern } from './like-pattern';

describe('containsPattern', () => {
  it('wraps plain text in %', () => {
    expect(containsPattern('bom dia')).toBe('%bom dia%');
  });

  it('escapes the wildcards and the escape character', () => {
    expect(containsPattern('50%_off\\now')).toBe('%50\\%\\_off\\\\now%');
  });
});
