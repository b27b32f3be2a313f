import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { KeyDerivation, derivedKey } from './derivation';
import { KeySet, keysInTrialOrder } from './key-set';

/**
 * HMAC-SHA256 under a key set for one purpose: signs with the current key,
 * verifies with any key of the set (docs/security.md, Keys and rotation).
 */
export class MacKeys {
  private readonly keys: KeyObject[];

  constructor(keys: KeySet, derivation: KeyDerivation) {
    this.keys = keysInTrialOrder(keys).map((secret) => derivedKey(secret, derivation));
  }

  /** The MAC of `message` under the current key. Strings are signed as UTF-8. */
  sign(message: string | Buffer): Buffer {
    return macOf(this.keys[0], message);
  }

  /** Whether `mac` is the MAC of `message` under some key of the set, each compared in constant time. */
  verify(message: string | Buffer, mac: Buffer): boolean {
    return this.keys.some((key) => {
      const expected = macOf(key, message);
      return expected.length === mac.length && timingSafeEqual(expected, mac);
    });
  }

  /**
   * The MAC of `message` under every key, in trial order: for a comparison
   * made elsewhere, such as a keyed hash looked up in Redis.
   */
  macsUnderEveryKey(message: string | Buffer): Buffer[] {
    return this.keys.map((key) => macOf(key, message));
  }
}

function macOf(key: KeyObject, message: string | Buffer): Buffer {
  return createHmac('sha256', key).update(message).digest();
}
