import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { MyPresenceDto } from './presence.dto';
import { PresenceRepository, PresenceRow } from './presence.repository';

export interface GetMyPresenceCommand {
  principal: OperatorPrincipal;
  tenantID: string;
}

/** The answer for an operator's row, or for none: offline, chosen online (the table's default), never changed. */
export function myPresenceOf(operatorID: string, row: PresenceRow | undefined): MyPresenceDto {
  if (!row) return { operatorID, status: 'offline', chosenStatus: 'online', changedAt: null };
  return { operatorID, status: row.status, chosenStatus: row.chosenStatus, changedAt: row.changedAt.toISOString() };
}

/** The requesting operator's presence in the tenant. */
@Injectable()
export class GetMyPresenceUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly presence: PresenceRepository,
  ) {}

  async execute(command: GetMyPresenceCommand): Promise<MyPresenceDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return myPresenceOf(command.principal.operatorID, await this.presence.find(scope, command.principal.operatorID));
  }
}
