/** Whose key it is: a key is only ever looked up within the app, principal and tenant that sent it. */
export interface KeyScope {
  /** The app answering, so each app reads and writes its own rows only. */
  app: string;
  /** `operator:<id>`, `plugin:<id>` or `pluginConnection:<id>`. */
  principal: string;
  /** The tenant of the path, lower-cased; empty for an operation on no tenant. */
  tenantID: string;
  key: string;
}

/** An answer kept to be replayed: status, the headers that matter and the body as sent. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON text sent, byte for byte. */
  body: string;
}

/** A new claim: the request holds the key until `leaseUntil`, the key lives until `expiresAt`. */
export interface NewClaim {
  fingerprint: string;
  leaseToken: string;
  now: Date;
  leaseUntil: Date;
  expiresAt: Date;
}

/** A key already there. */
export type ExistingKey =
  | { state: 'executing'; fingerprint: string; leaseExpiresAt: Date; expiresAt: Date }
  | { state: 'completed'; fingerprint: string; answer: StoredAnswer; expiresAt: Date };

/** Where keys are kept (PostgreSQL: IdempotencyKeysRepository). */
export interface IdempotencyKeyStore {
  /**
   * Claims the key for a new execution: true when it was free, had expired, or
   * was held by a request of the same fingerprint whose lease lapsed.
   */
  claim(scope: KeyScope, claim: NewClaim): Promise<boolean>;
  find(scope: KeyScope): Promise<ExistingKey | undefined>;
  /** Keeps the answer of the execution holding `leaseToken`. */
  complete(scope: KeyScope, leaseToken: string, answer: StoredAnswer): Promise<void>;
  /** Frees the key held by `leaseToken`, so the request can be sent again. */
  release(scope: KeyScope, leaseToken: string): Promise<void>;
}
