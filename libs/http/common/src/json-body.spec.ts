import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from './json-body';

const arrays = (levels: number): unknown => (levels === 0 ? 1 : [arrays(levels - 1)]);
const objects = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: 1, b: objects(levels - 1) });

describe('nestedDeeperThan', () => {
  it('counts the body itself as level 1', () => {
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({ a: {} }, 1)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
  });

  it.each([
    ['arrays', arrays],
    ['objects', objects],
  ])('accepts %s nested exactly to the limit and refuses one level more', (_, build) => {
    expect(nestedDeeperThan(build(64), 64)).toBe(false);
    expect(nestedDeeperThan(build(65), 64)).toBe(true);
  });

  it('finds a deep branch after shallow ones', () => {
    expect(nestedDeeperThan({ a: [1, 2, { b: 3 }], c: null, d: arrays(64) }, 64)).toBe(true);
    expect(nestedDeeperThan([[], {}, [arrays(62)]], 64)).toBe(false);
  });
});
