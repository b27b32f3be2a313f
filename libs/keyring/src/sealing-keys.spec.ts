import { describe, expect, it } from 'vitest';
import { SealedParts, SealingKeys } from './sealing-keys';

const OLD = 'the-key-being-retired-aaaaaaaaaaaaaaaaaaa';
const NEW = 'the-key-taking-over-bbbbbbbbbbbbbbbbbbbbb';
const PURPOSE = { salt: 'tests', info: 'one purpose' };

const flipped = (bytes: Buffer, index = 0): Buffer => {
  const copy = Buffer.from(bytes);
  copy[index] ^= 1;
  return copy;
};

describe('SealingKeys', () => {
  it('opens what it sealed, with a fresh IV each time, and the sealed form does not hold the plaintext', () => {
    const keys = new SealingKeys({ current: NEW }, PURPOSE);
    const sealed = keys.seal('a secret worth keeping');
    expect(keys.open(sealed)?.toString('utf8')).toBe('a secret worth keeping');
    expect(sealed.ciphertext.toString('utf8')).not.toContain('secret');
    expect([sealed.iv.length, sealed.tag.length]).toEqual([12, 16]);
    expect(keys.seal('a secret worth keeping').iv).not.toEqual(sealed.iv);
  });

  it('sealed under the old current key, opens after the rotation under previous, seals under the new one, and not once previous is dropped', () => {
    const before = new SealingKeys({ current: OLD }, PURPOSE).seal('kept');
    const rotated = new SealingKeys({ current: NEW, previous: [OLD] }, PURPOSE);
    expect(rotated.open(before)?.toString('utf8')).toBe('kept');
    const after = new SealingKeys({ current: NEW }, PURPOSE);
    expect(after.open(rotated.seal('kept'))?.toString('utf8')).toBe('kept');
    expect(after.open(before)).toBeUndefined();
  });

  it('refuses a value whose ciphertext, tag or IV was changed, or whose tag was shortened', () => {
    const keys = new SealingKeys({ current: NEW }, PURPOSE);
    const sealed = keys.seal('kept');
    const tampered: SealedParts[] = [
      { ...sealed, ciphertext: flipped(sealed.ciphertext) },
      { ...sealed, tag: flipped(sealed.tag, 15) },
      { ...sealed, iv: flipped(sealed.iv) },
      { ...sealed, tag: sealed.tag.subarray(0, 12) },
      { ...sealed, iv: sealed.iv.subarray(0, 8) },
    ];
    for (const parts of tampered) expect(keys.open(parts)).toBeUndefined();
  });

  it('refuses a value sealed for another purpose from the same secret, or bound to another place', () => {
    const sealed = new SealingKeys({ current: NEW }, PURPOSE).seal('kept', 'endpoint-1');
    expect(new SealingKeys({ current: NEW }, { salt: 'tests', info: 'another purpose' }).open(sealed, 'endpoint-1')).toBeUndefined();
    expect(new SealingKeys({ current: NEW }, { salt: 'other', info: 'one purpose' }).open(sealed, 'endpoint-1')).toBeUndefined();
    const keys = new SealingKeys({ current: NEW }, PURPOSE);
    expect(keys.open(sealed, 'endpoint-1')?.toString('utf8')).toBe('kept');
    expect(keys.open(sealed, 'endpoint-2')).toBeUndefined();
    expect(keys.open(sealed)).toBeUndefined();
  });
});
