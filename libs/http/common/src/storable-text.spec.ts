import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { assertStorableText, isStorableText, STORABLE_TEXT, unstorableTextIn } from './storable-text';

describe('isStorableText', () => {
  it.each(['', 'plain', 'Olá 😀', '\\u0000 written out', '\uFFFD'])('stores %j', (text) => expect(isStorableText(text)).toBe(true));
  it.each(['a\u0000b', '\uD800', 'x\uDBFFy', '\uDC00', '\uDFFF\uD800', '😀\uD83D'])('refuses %j', (text) => expect(isStorableText(text)).toBe(false));
});

describe('unstorableTextIn', () => {
  it('names the first offending string by its dotted path, escaped so that it reads', () => {
    expect(unstorableTextIn({ a: [{ ok: 'x' }, { b: 'y\u0000' }] }, '')).toEqual({ field: 'a.1.b', received: 'y\\u0000', allowed: STORABLE_TEXT });
  });
  it('names an offending object key', () => {
    expect(unstorableTextIn({ meta: { ['k\uD800']: 1 } }, '')).toEqual({ field: 'meta.k\\ud800', received: 'k\\ud800', allowed: STORABLE_TEXT });
  });
  it('finds nothing in numbers, booleans, null and clean text', () => {
    expect(unstorableTextIn({ a: 1, b: true, c: null, d: ['x', { e: 'y' }] }, '')).toBeUndefined();
  });
});

describe('assertStorableText', () => {
  const refusal = (request: Parameters<typeof assertStorableText>[0]) => {
    try {
      assertStorableText(request);
      return undefined;
    } catch (error) {
      return (error as AppException).toBody();
    }
  };
  it('reports path parameters, then the query, then the body, as 1002', () => {
    expect(refusal({ params: { id: '\u0000' }, query: { q: '\u0000' }, body: { b: '\u0000' } })?.fields).toEqual([{ field: 'id', received: '\\u0000', allowed: STORABLE_TEXT }]);
    expect(refusal({ params: {}, query: { q: '\u0000' } })).toMatchObject({ error_code: 1002, fields: [{ field: 'q' }] });
    // A body that is itself a string is answered with its JSON type only (docs/errors.md).
    expect(refusal({ body: '\uDC00' })?.fields).toEqual([{ field: 'body', received: 'string', allowed: STORABLE_TEXT }]);
  });
  it('lets storable requests through', () => {
    expect(refusal({ params: { id: 'a' }, query: {}, body: { text: 'Olá 😀' } })).toBeUndefined();
  });
});
