import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';
import { SocketIdentity } from './subscriber';

/** The sockets a principal and a tenant hold on this replica, against their limits (docs/realtime.md#limits). */
@Injectable()
export class SocketSlots {
  private readonly perPrincipal = new Map<string, number>();
  private readonly perTenant = new Map<string, number>();

  constructor(@Inject(SOCKET_SETTINGS) private readonly settings: Pick<SocketSettings, 'maxSocketsPerPrincipal' | 'maxSocketsPerTenant'>) {}

  /** 429 1071 when the principal or the tenant holds as many sockets as it may on this replica. */
  check(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    if ((this.perPrincipal.get(principalKey) ?? 0) >= this.settings.maxSocketsPerPrincipal) throw new AppException('TooManyRequests', { retryAfterSeconds: 1 });
    if ((this.perTenant.get(identity.tenantID) ?? 0) >= this.settings.maxSocketsPerTenant) throw new AppException('TooManyRequests', { retryAfterSeconds: 1 });
  }

  /** Counts the socket against its limits. */
  claim(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    this.perPrincipal.set(principalKey, (this.perPrincipal.get(principalKey) ?? 0) + 1);
    this.perTenant.set(identity.tenantID, (this.perTenant.get(identity.tenantID) ?? 0) + 1);
  }

  release(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    decrement(this.perPrincipal, principalKey);
    decrement(this.perTenant, identity.tenantID);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}
