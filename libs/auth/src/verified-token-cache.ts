/** What a full verification of an operator token established, kept for its next presentations. */
export interface VerifiedToken {
  operatorID: string;
  /** The token's `exp` claim (seconds since the epoch). */
  expiresAt: number;
  /** The `kid` of the key that verified it, when the token named one. */
  keyID?: string;
}

/** Enough for every operator active on one replica at once; about 0.5 KB per entry. */
export const DEFAULT_VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Operator tokens already verified in full, by their exact text, so a token
 * presented again skips the Ed25519 signature check (the largest CPU cost of
 * an authenticated request). Only the byte-identical token hits: any change
 * to header, payload or signature is a different key, verified in full.
 *
 * Bounded: past `maxEntries` the oldest entry goes. A Map keeps insertion
 * order, which is all the eviction this needs (entries also die at their
 * `exp`), so no LRU library is pulled in for it.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly maxEntries = DEFAULT_VERIFIED_TOKEN_CACHE_SIZE) {}

  /** The cached verification of `jwt` if it has not expired at `nowSeconds`, else undefined (and it is dropped). */
  get(jwt: string, nowSeconds: number): VerifiedToken | undefined {
    const entry = this.entries.get(jwt);
    if (!entry) return undefined;
    // The same rule as the full check (jose): expired once `exp` <= now.
    if (entry.expiresAt <= nowSeconds) {
      this.entries.delete(jwt);
      return undefined;
    }
    return entry;
  }

  set(jwt: string, token: VerifiedToken): void {
    this.entries.delete(jwt);
    this.entries.set(jwt, token);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(jwt: string): void {
    this.entries.delete(jwt);
  }

  get size(): number {
    return this.entries.size;
  }
}
