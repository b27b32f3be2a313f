import { KeySet, MacKeys } from '@platform/keyring';

/** The secrets that seal authorization entries in Redis (CACHE_SECRET and CACHE_SECRET_PREVIOUS): `previous` is still accepted during a rotation. */
export type CacheSecrets = KeySet;

/**
 * Seals the authorization values this library keeps in Redis, so that whoever
 * can write to Redis cannot grant what PostgreSQL did not (docs/security.md,
 * Caches in Redis).
 *
 * A sealed entry is `<expiresAtMs>.<mac>.<value>`, the MAC an HMAC-SHA256 over
 * the key name, the expiry and the value. Binding the key name means a valid
 * entry cannot be copied to another key (another connection, tenant or
 * operator); binding the expiry means a copy taken earlier cannot be written
 * back later to outlive the TTL it was sealed with.
 *
 * The MAC's key is the secret's UTF-8 bytes, not a derived key
 * (libs/keyring, 'secret-bytes'): entries in Redis and replicas of earlier
 * releases were sealed so, and keep opening.
 */
export class CacheSeal {
  private readonly keys: MacKeys;

  /** `onForged` is told the cache's name each time an entry fails verification (a metric). */
  constructor(
    secrets: CacheSecrets,
    private readonly onForged: (cache: string) => void = () => undefined,
  ) {
    this.keys = new MacKeys(secrets, 'secret-bytes');
  }

  seal(key: string, value: string, expiresAtMs: number): string {
    return `${expiresAtMs}.${this.keys.sign(signedText(key, expiresAtMs, value)).toString('base64url')}.${value}`;
  }

  /**
   * The value sealed under this key name, or undefined, which callers treat
   * as a miss (they read PostgreSQL): when the MAC does not verify with any
   * accepted secret (counted under `cache`), or when the entry was sealed to
   * lapse before `nowMs`.
   */
  open(cache: string, key: string, stored: string, nowMs: number): string | undefined {
    return this.openEntry(cache, key, stored, nowMs)?.value;
  }

  /** As `open`, with the expiry the entry was sealed with (which says when it was sealed, to a reader that knows its TTL). */
  openEntry(cache: string, key: string, stored: string, nowMs: number): { value: string; expiresAtMs: number } | undefined {
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})\.([\s\S]*)$/.exec(stored);
    const [, expiresAt, presented, value] = match ?? [];
    const expiresAtMs = Number(expiresAt);
    const mac = match ? Buffer.from(presented, 'base64url') : undefined;
    if (!mac || !this.keys.verify(signedText(key, expiresAtMs, value), mac)) {
      this.onForged(cache);
      return undefined;
    }
    return expiresAtMs > nowMs ? { value, expiresAtMs } : undefined;
  }
}

/** Newlines cannot occur in key names or in the expiry, so the three parts cannot be shifted into one another. */
function signedText(key: string, expiresAtMs: number, value: string): string {
  return `${key}\n${expiresAtMs}\n${value}`;
}
