import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { Authenticator, ConnectTickets, parseAuthorizationHeader, TenantAccessService } from '@platform/auth';
import { AppException, renderReceived } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';
import { SocketIdentity } from './subscriber';

/** The path sockets open on. */
export const REALTIME_PATH = '/v1/realtime';

/**
 * Who is opening a socket, from the upgrade request alone (docs/realtime.md,
 * Connecting):
 *
 * - an operator presents `?ticket=` (ConnectTickets, asked of services-api
 *   with their token), consumed here at most once; the operator token itself
 *   is refused in `Authorization` (401 1003): it reaches the REST APIs only;
 * - a plugin presents `Authorization: Plugin ...` and names the tenant
 *   (`?tenantID=`), where it must be installed;
 * - a plugin connection presents `Authorization: PluginConnection ...`: its
 *   tenant is its own.
 *
 * Credentials are checked as the REST APIs check them (libs/auth), with the
 * same caches: a reconnect storm costs Redis reads, not PostgreSQL queries.
 */
@Injectable()
export class UpgradeAuthentication {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly access: TenantAccessService,
    private readonly tickets: ConnectTickets,
  ) {}

  async identify(request: IncomingMessage, query: URLSearchParams): Promise<SocketIdentity> {
    const ticket = query.get('ticket');
    if (ticket !== null) return this.operatorOf(ticket);
    const credential = parseAuthorizationHeader(request.headers.authorization);
    if (credential.profile === 'operator') throw new AppException('Unauthorized');
    const principal = await this.authenticator.authenticate(credential);
    if (principal.kind === 'pluginConnection') {
      const named = query.get('tenantID');
      if (named !== null && (!isUuid(named) || canonicalUuid(named) !== principal.tenantID)) throw new AppException('Forbidden');
      return {
        tenantID: principal.tenantID,
        principal,
        audience: { kind: 'pluginConnection', pluginConnectionID: principal.pluginConnectionID },
        standingSubject: `plugin:${principal.pluginID}`,
        limitKey: `pluginConnection:${principal.pluginConnectionID}`,
        forwardedCredential: request.headers.authorization,
      };
    }
    if (principal.kind !== 'plugin') throw new AppException('Unauthorized');
    const tenantID = tenantOf(query);
    await this.access.check(principal, tenantID);
    return { tenantID, principal, audience: { kind: 'plugin', pluginID: principal.pluginID }, standingSubject: `plugin:${principal.pluginID}`, limitKey: `plugin:${principal.pluginID}` };
  }

  private async operatorOf(ticket: string): Promise<SocketIdentity> {
    const grant = await this.tickets.consume(ticket);
    if (!grant) throw new AppException('Unauthorized');
    const principal = { kind: 'operator' as const, operatorID: grant.operatorID };
    // The membership may have ended since the ticket was issued.
    await this.access.check(principal, grant.tenantID);
    return {
      tenantID: grant.tenantID,
      principal,
      audience: { kind: 'operator', operatorID: grant.operatorID },
      standingSubject: `operator:${grant.operatorID}`,
      limitKey: `operator:${grant.operatorID}`,
      credentialExpiresAtMs: grant.credentialExpiresAtMs,
    };
  }
}

function tenantOf(query: URLSearchParams): string {
  const tenantID = query.get('tenantID');
  if (tenantID === null || tenantID === '') throw new AppException('MissingTenantID');
  if (!isUuid(tenantID)) throw AppException.validation([{ field: 'tenantID', received: renderReceived(tenantID), allowed: 'uuid' }]);
  return canonicalUuid(tenantID);
}
