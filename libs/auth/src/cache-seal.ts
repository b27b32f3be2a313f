import { createHmac, createSecretKey, KeyObject, timingSafeEqual } from 'node:crypto';

/** The secrets that seal authorization entries in Redis: `previous` is still accepted during a rotation. */
export interface CacheSecrets {
  current: string;
  previous?: string;
}

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
 * Node's crypto is all this needs: an HMAC and a constant-time comparison.
 */
export class CacheSeal {
  /**
   * Key objects made once: `createHmac` given a Buffer key costs several
   * times the HMAC itself on every call (Node.js 24), given a KeyObject it
   * does not. Same key bytes (the secret's UTF-8), so the same MACs.
   */
  private readonly keys: KeyObject[];

  /** `onForged` is told the cache's name each time an entry fails verification (a metric). */
  constructor(
    secrets: CacheSecrets,
    private readonly onForged: (cache: string) => void = () => undefined,
  ) {
    this.keys = [secrets.current, secrets.previous].filter((secret): secret is string => Boolean(secret)).map((secret) => createSecretKey(Buffer.from(secret, 'utf8')));
    if (this.keys.length === 0) throw new Error('CacheSeal needs a secret');
  }

  seal(key: string, value: string, expiresAtMs: number): string {
    return `${expiresAtMs}.${this.mac(this.keys[0], key, expiresAtMs, value).toString('base64url')}.${value}`;
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
    if (!mac || !this.keys.some((secret) => timingSafeEqual(this.mac(secret, key, expiresAtMs, value), mac))) {
      this.onForged(cache);
      return undefined;
    }
    return expiresAtMs > nowMs ? { value, expiresAtMs } : undefined;
  }

  private mac(secret: KeyObject, key: string, expiresAtMs: number, value: string): Buffer {
    // Newlines cannot occur in key names or in the expiry, so the three parts cannot be shifted into one another.
    return createHmac('sha256', secret).update(`${key}\n${expiresAtMs}\n${value}`).digest();
  }
}
