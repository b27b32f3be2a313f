import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromNearerEnd, splitPage } from './page-split';

describe('splitPage', () => {
  it('takes a page inside the first range from it alone', () => {
    expect(splitPage(0, 20, 50)).toEqual({ first: { offset: 0, limit: 20 }, second: { offset: 0, limit: 0 } });
  });

  it('crosses from the first range into the second', () => {
    expect(splitPage(40, 20, 50)).toEqual({ first: { offset: 40, limit: 10 }, second: { offset: 0, limit: 10 } });
  });

  it('takes a page past the first range from the second alone', () => {
    expect(splitPage(60, 20, 50)).toEqual({ first: { offset: 50, limit: 0 }, second: { offset: 10, limit: 20 } });
  });

  it('covers exactly the rows [offset, offset + perPage) of the two ranges laid end to end', () => {
    fc.assert(
      fc.property(fc.nat(500), fc.integer({ min: 1, max: 200 }), fc.nat(500), (offset, perPage, firstCount) => {
        const { first, second } = splitPage(offset, perPage, firstCount);
        const rows = [
          ...Array.from({ length: first.limit }, (_, index) => first.offset + index),
          ...Array.from({ length: second.limit }, (_, index) => firstCount + second.offset + index),
        ];
        expect(rows).toEqual(Array.from({ length: perPage }, (_, index) => offset + index));
      }),
    );
  });
});

describe('fromNearerEnd', () => {
  it('keeps a slice in the first half as it is', () => {
    expect(fromNearerEnd({ offset: 20, limit: 20 }, 1000)).toEqual({ offset: 20, limit: 20 });
  });

  it('reads a slice in the second half from the end', () => {
    expect(fromNearerEnd({ offset: 980, limit: 20 }, 1000)).toEqual({ offset: 0, limit: 20, backward: true });
    expect(fromNearerEnd({ offset: 990, limit: 20 }, 1000)).toEqual({ offset: 0, limit: 10, backward: true });
  });

  it('covers the same rows either way', () => {
    fc.assert(
      fc.property(fc.nat(300), fc.integer({ min: 0, max: 200 }), fc.nat(300), (offset, limit, rangeSize) => {
        fc.pre(offset <= rangeSize);
        const slice = fromNearerEnd({ offset, limit }, rangeSize);
        const rows = Array.from({ length: slice.limit }, (_, index) => (slice.backward ? rangeSize - 1 - slice.offset - index : slice.offset + index)).sort(
          (a, b) => a - b,
        );
        const expected = Array.from({ length: Math.max(0, Math.min(limit, rangeSize - offset)) }, (_, index) => offset + index);
        expect(rows).toEqual(expected);
        expect(slice.offset).toBeLessThanOrEqual(Math.ceil(rangeSize / 2));
      }),
    );
  });
});
