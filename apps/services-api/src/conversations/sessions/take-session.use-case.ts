import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { refuseUnseen } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface TakeSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
}

/** An operator who may see a queued session takes it: they become its assignee (409 1943 when it has one, 1942 when closed). */
@Injectable()
export class TakeSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
  ) {}

  async execute(command: TakeSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const { operatorID } = command.principal;
    return this.changes.apply(scope, command.sessionID, (view) => refuseUnseen(command.principal, view), {
      check: (before) => {
        if (before.session.sessionState === 'assigned') throw new AppException('SessionAlreadyAssigned');
      },
      write: (runner) => this.sessions.assign(runner, scope, command.sessionID, operatorID),
      event: 'session.assigned',
      extra: () => ({ assignedByOperatorID: operatorID }),
      clearOthers: true,
    });
  }
}
