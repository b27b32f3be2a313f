import { describe, expect, it } from 'vitest';
import { candidateName, firstFreeSuffix, MAX_NAME_SUFFIX, normaliseTemplateName } from './campaign-model-name';

describe('template names', () => {
  it.each([
    ['order_update', 'order_update'],
    ['Order Update', 'order_update'],
    ['  Promoção de Verão!! 2026 ', 'promocao_de_verao_2026'],
    ['__a--b__', 'a_b'],
    ['ÇÃO', 'cao'],
    ['a'.repeat(600), 'a'.repeat(512)],
  ])('normalises %j to %j', (requested, expected) => {
    expect(normaliseTemplateName(requested)).toBe(expected);
  });

  it.each([['!!!'], ['日本語'], ['___'], ['   ']])('finds nothing valid in %j', (requested) => {
    expect(normaliseTemplateName(requested)).toBeUndefined();
  });

  it('never yields more than 512 valid characters, whatever the input', () => {
    for (const requested of ['x'.repeat(511) + '!y', `${'b'.repeat(520)}`, 'Ab'.repeat(300)]) {
      const name = normaliseTemplateName(requested)!;
      expect(name).toMatch(/^[a-z0-9_]{1,512}$/);
      expect(candidateName(name, MAX_NAME_SUFFIX)).toMatch(/^[a-z0-9_]{1,512}$/);
    }
  });

  it('derives suffixed names and keeps them within 512 characters', () => {
    expect(candidateName('order_update', 1)).toBe('order_update');
    expect(candidateName('order_update', 2)).toBe('order_update_2');
    const long = 'a'.repeat(512);
    expect(candidateName(long, 37)).toBe(`${'a'.repeat(509)}_37`);
  });

  it('hints at the first free suffix', () => {
    expect(firstFreeSuffix('x', [])).toBe(1);
    expect(firstFreeSuffix('x', ['x', 'x_2', 'x_4'])).toBe(3);
    expect(firstFreeSuffix('x', Array.from({ length: MAX_NAME_SUFFIX }, (_, index) => candidateName('x', index + 1)))).toBe(MAX_NAME_SUFFIX + 1);
  });
});
