import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { refuseUnseen } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface JoinSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
}

/** An operator who may see an open session joins it as a participant (409 1945 when they are its assignee or a participant already). */
@Injectable()
export class JoinSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
  ) {}

  async execute(command: JoinSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const { operatorID } = command.principal;
    return this.changes.apply(scope, command.sessionID, (view) => refuseUnseen(command.principal, view), {
      check: (before) => {
        if (before.session.operatorID === operatorID || before.session.operatorParticipantsIDs.includes(operatorID)) throw new AppException('AlreadyInSession');
      },
      write: (runner) => this.sessions.join(runner, scope, command.sessionID, operatorID),
      event: 'session.participantJoined',
      extra: () => ({ participantID: operatorID }),
    });
  }
}
