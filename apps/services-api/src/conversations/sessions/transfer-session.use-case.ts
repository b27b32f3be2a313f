import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { existing } from './assign-session.use-case';
import { OperatorCapacity } from '../routing/operator-capacity';
import { refuseUnseen, TenantRoles } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface TransferSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
  /** Canonical (the request rule). */
  operatorID: string;
  /** Go past the capacity of the inbox's routing policy: owners only (else 403 1004). */
  override: boolean;
}

/**
 * The assignee, or an owner, hands an assigned session to another member
 * (404 1990 for a non-member). The previous assignee stays a participant;
 * the new one gets an `assignment` notification. A queued session is taken
 * or assigned instead (409 1944); handing it to its assignee is 409 1945;
 * any other operator is refused (403 1004). On an inbox with a routed
 * policy the new assignee must be under its capacity (409 1949) unless an
 * owner passes `override`.
 */
@Injectable()
export class TransferSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly roles: TenantRoles,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
    private readonly capacity: OperatorCapacity,
  ) {}

  async execute(command: TransferSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const owner = await this.roles.isOwner(command.principal, command.tenantID);
    if (command.override && !owner) throw new AppException('Forbidden');
    await this.roles.requireMember(scope, command.operatorID);
    const byself = command.principal.operatorID;
    return this.changes.apply(scope, command.sessionID, (view) => (owner ? existing(view) : refuseUnseen(command.principal, view)), {
      check: (before) => {
        if (before.session.sessionState === 'queued') throw new AppException('SessionNotAssigned');
        if (!owner && before.session.operatorID !== byself) throw new AppException('Forbidden');
        if (before.session.operatorID === command.operatorID) throw new AppException('AlreadyInSession');
      },
      write: async (runner, before) => {
        await this.capacity.admit(runner, { tenantID: scope.tenantID, inboxID: before.session.inboxID, operatorID: command.operatorID, override: command.override });
        await this.sessions.transfer(runner, scope, command.sessionID, command.operatorID);
      },
      event: 'session.transferred',
      extra: (before) => ({ previousOperatorID: before.session.operatorID!, transferredByOperatorID: byself }),
      assignedTo: command.operatorID !== byself ? command.operatorID : undefined,
      clearOthers: true,
    });
  }
}
