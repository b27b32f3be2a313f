import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { CURSOR_ALLOWED, KeysetCursors, KeysetList } from './keyset-cursor';

/** A list whose positions are numbers, parsed back only when whole and positive. */
const NUMBERS: KeysetList<number> = {
  name: 'numbers',
  format: (position) => String(position),
  parse: (text) => (/^[1-9]\d{0,8}$/.test(text) ? Number(text) : undefined),
};
const OTHER: KeysetList<number> = { ...NUMBERS, name: 'other' };

function refusal(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    if (error instanceof AppException) return { key: error.key, fields: error.fields };
    throw error;
  }
  throw new Error('the cursor was accepted');
}

describe('KeysetCursors', () => {
  const cursors = new KeysetCursors({ current: 'the current cursor key, long enough' });

  it('reads back the position of a cursor it issued', () => {
    expect(cursors.read(NUMBERS, cursors.issue(NUMBERS, 42))).toBe(42);
  });

  it('refuses with 400 1002 on the parameter a cursor it did not make: forged, altered, of another list, or of another key', () => {
    const made = cursors.issue(NUMBERS, 42);
    const [position, mac] = made.split('.');
    const otherKey = new KeysetCursors({ current: 'another cursor key, long enough too' });
    const forged = [
      Buffer.from('42').toString('base64url'),
      `${Buffer.from('43').toString('base64url')}.${mac}`,
      `${position}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${position}.${mac}.`,
      otherKey.issue(NUMBERS, 42),
      cursors.issue(OTHER, 42),
      '',
      `${'A'.repeat(300)}.${mac}`,
    ];
    for (const cursor of forged) {
      expect(refusal(() => cursors.read(NUMBERS, cursor, 'after')), cursor).toEqual({
        key: 'RequestValidation',
        fields: [{ field: 'after', received: cursor, allowed: CURSOR_ALLOWED }],
      });
    }
  });

  it('refuses a cursor it made whose position the list does not parse', () => {
    expect(refusal(() => cursors.read(NUMBERS, cursors.issue(NUMBERS, -1)))).toMatchObject({ key: 'RequestValidation', fields: [{ field: 'cursor' }] });
  });

  it('reads cursors made under a previous key during a rotation, and makes new ones under the current', () => {
    const before = new KeysetCursors({ current: 'the old cursor key, long enough' });
    const during = new KeysetCursors({ current: 'the new cursor key, long enough', previous: 'the old cursor key, long enough' });
    expect(during.read(NUMBERS, before.issue(NUMBERS, 7))).toBe(7);
    expect(refusal(() => before.read(NUMBERS, during.issue(NUMBERS, 7)))).toMatchObject({ key: 'RequestValidation' });
  });
});
