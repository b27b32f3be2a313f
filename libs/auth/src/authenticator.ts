import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { PresentedCredential } from './authorization-header';
import { CredentialStore } from './credential-store';
import { OperatorTokenVerifier } from './operator-token.verifier';
import { Principal } from './principal';
import { secretTokenMatches } from './secret-tokens';

/** Verifies a presented credential and says who it belongs to; 401 1003 for anything invalid. */
@Injectable()
export class Authenticator {
  constructor(
    private readonly operatorTokens: OperatorTokenVerifier,
    private readonly credentials: CredentialStore,
  ) {}

  async authenticate(credential: PresentedCredential): Promise<Principal> {
    switch (credential.profile) {
      case 'operator':
        return { kind: 'operator', operatorID: await this.operatorTokens.verify(credential.jwt) };
      case 'plugin': {
        const stored = await this.credentials.findPlugin(credential.id);
        if (!stored || !secretTokenMatches(credential.secret, stored.tokenHash)) throw new AppException('Unauthorized');
        return { kind: 'plugin', pluginID: credential.id };
      }
      case 'pluginConnection': {
        const stored = await this.credentials.findLiveConnection(credential.id);
        if (!stored || !secretTokenMatches(credential.secret, stored.tokenHash)) throw new AppException('Unauthorized');
        return { kind: 'pluginConnection', pluginConnectionID: credential.id, pluginID: stored.pluginID, tenantID: stored.tenantID };
      }
    }
  }
}
