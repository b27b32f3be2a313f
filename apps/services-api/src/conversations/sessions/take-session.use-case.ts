import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { OperatorCapacity } from '../routing/operator-capacity';
import { refuseUnseen } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface TakeSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
}

/**
 * An operator who may see a queued session takes it: they become its
 * assignee (409 1943 when it has one, 1942 when closed). On an inbox with a
 * routed policy they must be under its capacity (409 1949); an owner who
 * must go past it assigns the session to themself with `override`.
 */
@Injectable()
export class TakeSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
    private readonly capacity: OperatorCapacity,
  ) {}

  async execute(command: TakeSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const { operatorID } = command.principal;
    return this.changes.apply(scope, command.sessionID, (view) => refuseUnseen(command.principal, view), {
      check: (before) => {
        if (before.session.sessionState === 'assigned') throw new AppException('SessionAlreadyAssigned');
      },
      write: async (runner, before) => {
        await this.capacity.admit(runner, { tenantID: scope.tenantID, inboxID: before.session.inboxID, operatorID, override: false });
        await this.sessions.assign(runner, scope, command.sessionID, operatorID);
      },
      event: 'session.assigned',
      extra: () => ({ assignedByOperatorID: operatorID, assignedBy: 'operator' as const }),
      clearOthers: true,
    });
  }
}
