import { CacheSecrets } from './cache-seal';

/** The channel every replica of every app listens on for forgotten standings: `auth:v2:standings-forgotten:<namespace>`. */
export function standingInvalidationChannel(namespace: string): string {
  return `auth:v2:standings-forgotten:${namespace}`;
}

/** How the authorization caches in Redis are sealed, how long unknown ids are remembered, and where invalidations travel. */
export class AuthCacheSettings {
  constructor(
    readonly secrets: CacheSecrets,
    /** Seconds an unknown plugin or connection id is answered from Redis; 0 turns it off. */
    readonly unknownCredentialTtlSeconds: number,
    /**
     * Pub/sub channel of forgotten standings; channels ignore Redis db numbers,
     * so it carries the environment's namespace, like the transport's.
     */
    readonly invalidationChannel: string = standingInvalidationChannel('local'),
    /**
     * `read-only`: this app reads the standings other apps keep in Redis and
     * keeps its own lookups in process only, so its Redis user needs no write
     * access to them (plugins-helpdesk: docs/deployment.md, Redis ACLs).
     */
    readonly standingCopies: 'read-write' | 'read-only' = 'read-write',
  ) {}
}
