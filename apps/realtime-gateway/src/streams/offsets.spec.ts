import { describe, expect, it } from 'vitest';
import { compareOffsets, isReadableOffset } from './offsets';

/** The order by value, as Redis orders entry ids: milliseconds, then sequence. */
function byValue(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(BigInt);
  const [bMs, bSeq] = b.split('-').map(BigInt);
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  return aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1;
}

describe('compareOffsets', () => {
  const offsets = [
    '0-0',
    '0-1',
    '00-01',
    '1-0',
    '9-9',
    '10-0',
    '1764950400000-0',
    '1764950400000-1',
    '1764950400000-10',
    '1764950400001-0',
    '01764950400001-00',
    '18446744073709551615-18446744073709551615',
    '99999999999999999999-0',
  ];

  it('orders offsets by their numbers, as Redis does, leading zeros and all', () => {
    for (const a of offsets) for (const b of offsets) expect([a, b, compareOffsets(a, b)]).toEqual([a, b, byValue(a, b)]);
  });
});

describe('isReadableOffset', () => {
  it('takes offsets whose numbers fit 64 bits, leading zeros and all, but not the last id there can be', () => {
    for (const offset of ['0-0', '00-01', '1764950400000-3', '18446744073709551615-0', '0-18446744073709551615', '018446744073709551614-1']) expect([offset, isReadableOffset(offset)]).toEqual([offset, true]);
    for (const offset of ['99999999999999999999-0', '18446744073709551616-0', '0-18446744073709551616', '18446744073709551615-18446744073709551615']) {
      expect([offset, isReadableOffset(offset)]).toEqual([offset, false]);
    }
  });
});
