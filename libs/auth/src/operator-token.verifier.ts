import { Injectable } from '@nestjs/common';
import { KeyObject } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors, importSPKI, JWTPayload, jwtVerify } from 'jose';
import type { OperatorTokenVerificationConfig } from '@platform/config';
import { AppException } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';
import { ExpiringCache } from './expiring-cache';

/** The one signing algorithm of operator tokens; anything else (including `none`) is refused. */
export const OPERATOR_JWT_ALGORITHM = 'EdDSA';

export interface OperatorTokenSettings {
  issuer: string;
  audience: string;
  /** SPKI PEM public key, or a key object (core-tenants verifies with its own key). */
  publicKey?: string | KeyObject;
  /** core-tenants' JWKS, used when no public key is given. */
  jwksUrl?: string;
  /** Most verified tokens remembered at once (default 10,000). */
  verifiedTokenCacheSize?: number;
}

/** The config keys every app reads its operator-token settings from. */
export type OperatorTokenConfig = Pick<OperatorTokenVerificationConfig, 'OPERATOR_JWT_ISSUER' | 'OPERATOR_JWT_AUDIENCE' | 'OPERATOR_JWT_PUBLIC_KEY' | 'OPERATOR_JWKS_URL'>;

/** How an app verifies operator tokens: the claims it expects and core-tenants' public key, inline or by JWKS. */
export function operatorTokenSettingsOf(config: OperatorTokenConfig): OperatorTokenSettings {
  return {
    issuer: config.OPERATOR_JWT_ISSUER,
    audience: config.OPERATOR_JWT_AUDIENCE,
    publicKey: config.OPERATOR_JWT_PUBLIC_KEY,
    jwksUrl: config.OPERATOR_JWKS_URL,
  };
}

/** What a full verification of a token established, kept for its next presentations. */
interface VerifiedToken {
  operatorID: string;
  /** The `kid` of the key that verified it, when the token named one. */
  keyID?: string;
}

/** Enough for every operator active on one replica at once; about 0.5 KB per entry. */
const DEFAULT_VERIFIED_TOKEN_CACHE_SIZE = 10_000;

type KeyResolver = Parameters<typeof jwtVerify>[1];
type JwksResolver = ReturnType<typeof createRemoteJWKSet>;

export const OPERATOR_TOKEN_SETTINGS = Symbol('OPERATOR_TOKEN_SETTINGS');

function isJwks(resolver: KeyResolver): resolver is JwksResolver {
  return typeof resolver === 'function' && 'jwks' in resolver;
}

/**
 * Verifies operator bearer tokens locally, with no database or network call
 * on the hot path. A token verified once is remembered by its exact text
 * until its `exp`, so presenting it again skips the Ed25519 signature check
 * (the largest CPU cost of an authenticated request); any change to header,
 * payload or signature makes another text, verified in full. With a JWKS, a remembered token also needs its key to be
 * in the JWKS as last fetched, and that copy to be fresh: when it is not,
 * the token goes through the full check, which refetches the JWKS, so a key
 * rotated out of the JWKS stops its tokens exactly as without the cache.
 * `nbf` needs nothing more: a token is only remembered once it has passed it.
 */
@Injectable()
export class OperatorTokenVerifier {
  private keyResolver?: Promise<KeyResolver>;
  private readonly verified: ExpiringCache<VerifiedToken>;
  /** Key ids of the JWKS as last seen after a full check; undefined with a fixed public key. */
  private servedKeyIDs?: ReadonlySet<string | undefined>;

  constructor(private readonly settings: OperatorTokenSettings) {
    this.verified = new ExpiringCache(settings.verifiedTokenCacheSize ?? DEFAULT_VERIFIED_TOKEN_CACHE_SIZE);
  }

  private resolveKey(): Promise<KeyResolver> {
    this.keyResolver ??= (async (): Promise<KeyResolver> => {
      const { publicKey, jwksUrl } = this.settings;
      if (publicKey instanceof KeyObject) return publicKey;
      if (typeof publicKey === 'string') return importSPKI(publicKey, OPERATOR_JWT_ALGORITHM);
      if (jwksUrl) return createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
      return createLocalJWKSet({ keys: [] });
    })();
    return this.keyResolver;
  }

  /** Returns the operatorID of a valid token; 401 1003 for any invalid one. */
  async verify(jwt: string): Promise<string> {
    const resolver = await this.resolveKey();
    const remembered = this.verified.get(jwt, Date.now());
    if (remembered && this.keyStillServed(resolver, remembered.keyID)) return remembered.operatorID;

    let payload: JWTPayload;
    let keyID: string | undefined;
    try {
      ({ payload, protectedHeader: { kid: keyID } } = await jwtVerify(jwt, resolver, {
        algorithms: [OPERATOR_JWT_ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      this.verified.delete(jwt);
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) {
        throw new AppException('Unauthorized', { cause: error });
      }
      // The JWKS could not be fetched: our fault, not the caller's.
      throw new AppException('InternalServiceUnavailable', { cause: error });
    } finally {
      // A full check is when the JWKS gets refetched: note which keys it now serves.
      if (isJwks(resolver)) this.servedKeyIDs = new Set(resolver.jwks()?.keys.map((key) => key.kid));
    }
    if (!isUuid(payload.sub)) throw new AppException('Unauthorized');
    const operatorID = canonicalUuid(payload.sub);
    // The full check's rule: expired once `exp` <= now in whole seconds, i.e. from exp * 1000 ms on.
    this.verified.set(jwt, { operatorID, keyID }, (payload.exp as number) * 1000);
    return operatorID;
  }

  private keyStillServed(resolver: KeyResolver, keyID: string | undefined): boolean {
    if (!isJwks(resolver)) return true;
    return resolver.fresh && this.servedKeyIDs !== undefined && this.servedKeyIDs.has(keyID);
  }
}
