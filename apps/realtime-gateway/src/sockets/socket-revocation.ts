import { Injectable } from '@nestjs/common';
import { CredentialStore, ForgottenStanding, StandingInvalidations, TenantAccessService } from '@platform/auth';
import { toAppException } from '@platform/errors';
import { CLOSE_CODES } from './frames';
import { OpenSockets } from './open-sockets';
import { Subscriber } from './subscriber';

/** Sockets checked again at once after the invalidation listener reconnected. */
const RECHECK_BATCH = 100;

/** Closes the sockets whose access was revoked since their upgrade (4403), as the standings change. */
@Injectable()
export class SocketRevocation {
  constructor(
    private readonly sockets: OpenSockets,
    private readonly access: TenantAccessService,
    private readonly credentials: CredentialStore,
    invalidations: StandingInvalidations,
  ) {
    invalidations.onChange(
      (standing) => this.recheckStanding(standing),
      () => this.recheckAll(),
    );
  }

  /** A standing changed somewhere: the sockets it concerns are checked again, and closed if refused now. */
  recheckStanding({ tenantID, subject }: ForgottenStanding): void {
    for (const subscriber of this.sockets.ofTenant(tenantID)) {
      if (subscriber.identity.standingSubject === subject) void this.recheck(subscriber);
    }
  }

  /**
   * Messages may have been missed (the listener reconnected): every socket is
   * checked again, a batch at a time, so a reconnection does not send every
   * socket's lookup to Redis at once.
   */
  recheckAll(): void {
    const all = [...this.sockets];
    void (async () => {
      for (let index = 0; index < all.length; index += RECHECK_BATCH) {
        await Promise.all(all.slice(index, index + RECHECK_BATCH).map((subscriber) => this.recheck(subscriber)));
      }
    })();
  }

  private async recheck(subscriber: Subscriber): Promise<void> {
    const { principal, tenantID } = subscriber.identity;
    try {
      if (principal.kind === 'pluginConnection') {
        if (!(await this.credentials.findLiveConnection(principal.pluginConnectionID))) subscriber.close(CLOSE_CODES.accessRevoked, 'access revoked');
        return;
      }
      await this.access.check(principal, tenantID);
    } catch (error) {
      const refusal = toAppException(error);
      // Refused: access is gone. Unavailable (Redis or PostgreSQL away): the socket stays; it is checked again at the next change or reset.
      if (refusal && refusal.status < 500) subscriber.close(CLOSE_CODES.accessRevoked, 'access revoked');
    }
  }
}
