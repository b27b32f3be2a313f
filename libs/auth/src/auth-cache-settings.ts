import { CacheSecrets } from './cache-seal';

/** How the authorization caches in Redis are sealed, and how long unknown ids are remembered. */
export class AuthCacheSettings {
  constructor(
    readonly secrets: CacheSecrets,
    /** Seconds an unknown plugin or connection id is answered from Redis; 0 turns it off. */
    readonly unknownCredentialTtlSeconds: number,
  ) {}
}
