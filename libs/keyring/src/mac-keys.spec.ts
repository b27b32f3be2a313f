import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keysInTrialOrder } from './key-set';
import { MacKeys } from './mac-keys';

const OLD = 'the-key-being-retired-aaaaaaaaaaaaaaaaaaa';
const NEW = 'the-key-taking-over-bbbbbbbbbbbbbbbbbbbbb';
const PURPOSE = { hkdf: { salt: 'tests', info: 'one purpose' } };

describe('MacKeys', () => {
  it('verifies what it signed, and refuses a changed message or MAC', () => {
    const keys = new MacKeys({ current: NEW }, PURPOSE);
    const mac = keys.sign('hello');
    expect(keys.verify('hello', mac)).toBe(true);
    expect(keys.verify('hellO', mac)).toBe(false);
    const flipped = Buffer.from(mac);
    flipped[0] ^= 1;
    expect(keys.verify('hello', flipped)).toBe(false);
    expect(keys.verify('hello', mac.subarray(0, 16))).toBe(false);
    expect(keys.verify('hello', Buffer.alloc(0))).toBe(false);
  });

  it('signed under the old current key, verifies after the rotation under previous, and not once previous is dropped', () => {
    const mac = new MacKeys({ current: OLD }, PURPOSE).sign('hello');
    const rotated = new MacKeys({ current: NEW, previous: [OLD] }, PURPOSE);
    expect(rotated.verify('hello', mac)).toBe(true);
    expect(rotated.sign('hello')).toEqual(new MacKeys({ current: NEW }, PURPOSE).sign('hello'));
    expect(new MacKeys({ current: NEW }, PURPOSE).verify('hello', mac)).toBe(false);
  });

  it('refuses a MAC made for another purpose from the same secret', () => {
    const mac = new MacKeys({ current: NEW }, PURPOSE).sign('hello');
    expect(new MacKeys({ current: NEW }, { hkdf: { salt: 'tests', info: 'another purpose' } }).verify('hello', mac)).toBe(false);
    expect(new MacKeys({ current: NEW }, 'secret-bytes').verify('hello', mac)).toBe(false);
  });

  it('keys each purpose as documented: HKDF-SHA256 of the secret, or the secret itself', () => {
    const secret = 'clé-ünïcode-cccccccccccccccccccccccccccc';
    const derived = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'tests', 'one purpose', 32));
    expect(new MacKeys({ current: secret }, PURPOSE).sign('hello')).toEqual(createHmac('sha256', derived).update('hello').digest());
    expect(new MacKeys({ current: secret }, 'secret-bytes').sign('hello')).toEqual(createHmac('sha256', Buffer.from(secret, 'utf8')).update('hello').digest());
  });

  it('gives the MAC under every key in trial order, for a comparison made elsewhere', () => {
    const rotated = new MacKeys({ current: NEW, previous: OLD }, PURPOSE);
    expect(rotated.macsUnderEveryKey('hello')).toEqual([new MacKeys({ current: NEW }, PURPOSE).sign('hello'), new MacKeys({ current: OLD }, PURPOSE).sign('hello')]);
  });
});

describe('keysInTrialOrder', () => {
  it('puts current first, then the previous keys as given, one or several, without unset or blank ones', () => {
    expect(keysInTrialOrder({ current: 'a' })).toEqual(['a']);
    expect(keysInTrialOrder({ current: 'a', previous: 'b' })).toEqual(['a', 'b']);
    expect(keysInTrialOrder({ current: 'a', previous: ['b', undefined, ' ', 'c'] })).toEqual(['a', 'b', 'c']);
    expect(keysInTrialOrder({ current: 'a', previous: '' })).toEqual(['a']);
  });

  it('refuses a set without a current key', () => {
    expect(() => keysInTrialOrder({ current: '', previous: 'b' })).toThrow(/current key/);
  });
});
