import { Injectable } from '@nestjs/common';
import { ConnectTickets, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { RealtimeTicketDto } from './realtime-ticket.dto';

export interface IssueRealtimeTicketCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** When the token the operator asked with expires: the socket closes then. */
  credentialExpiresAtMs: number;
}

/**
 * A connect ticket for the real-time gateway (docs/realtime.md, Operators):
 * any member of the tenant may ask; an unknown tenant is 404 1062. Nothing
 * is written but the ticket in Redis; Redis away is 503 5903.
 */
@Injectable()
export class IssueRealtimeTicketUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly tickets: ConnectTickets,
  ) {}

  async execute(command: IssueRealtimeTicketCommand): Promise<RealtimeTicketDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const { ticket, expiresAtMs } = await this.tickets.issue({
      operatorID: command.principal.operatorID,
      tenantID: scope.tenantID,
      credentialExpiresAtMs: command.credentialExpiresAtMs,
    });
    return { ticket, expiresAt: new Date(expiresAtMs).toISOString() };
  }
}
