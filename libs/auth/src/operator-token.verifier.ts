import { Injectable } from '@nestjs/common';
import { KeyObject } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors, importSPKI, JWTPayload, jwtVerify } from 'jose';
import { AppException } from '@platform/errors';
import { isUuid } from '@platform/http-common';

/** The one signing algorithm of operator tokens; anything else (including `none`) is refused. */
export const OPERATOR_JWT_ALGORITHM = 'EdDSA';

export interface OperatorTokenSettings {
  issuer: string;
  audience: string;
  /** SPKI PEM public key, or a key object (core-tenants verifies with its own key). */
  publicKey?: string | KeyObject;
  /** core-tenants' JWKS, used when no public key is given. */
  jwksUrl?: string;
}

type KeyResolver = Parameters<typeof jwtVerify>[1];

export const OPERATOR_TOKEN_SETTINGS = Symbol('OPERATOR_TOKEN_SETTINGS');

/** Verifies operator bearer tokens locally, with no database or network call on the hot path. */
@Injectable()
export class OperatorTokenVerifier {
  private keyResolver?: Promise<KeyResolver>;

  constructor(private readonly settings: OperatorTokenSettings) {}

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
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(jwt, await this.resolveKey(), {
        algorithms: [OPERATOR_JWT_ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) {
        throw new AppException('Unauthorized', { cause: error });
      }
      // The JWKS could not be fetched: our fault, not the caller's.
      throw new AppException('InternalServiceUnavailable', { cause: error });
    }
    if (!isUuid(payload.sub)) throw new AppException('Unauthorized');
    return payload.sub.toLowerCase();
  }
}
