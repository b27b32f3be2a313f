import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { existing } from './assign-session.use-case';
import { refuseUnseen, TenantRoles } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface CloseSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
}

/**
 * The assignee, or an owner, closes a session for good (409 1942 when it is
 * closed already; 403 1004 for any other operator, a queued session
 * included unless an owner closes it). Its unread notifications are cleared;
 * the contact's next inbound message opens a new session.
 */
@Injectable()
export class CloseSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly roles: TenantRoles,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
  ) {}

  async execute(command: CloseSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const owner = await this.roles.isOwner(command.principal, command.tenantID);
    const { operatorID } = command.principal;
    return this.changes.apply(scope, command.sessionID, (view) => (owner ? existing(view) : refuseUnseen(command.principal, view)), {
      check: (before) => {
        if (!owner && before.session.operatorID !== operatorID) throw new AppException('Forbidden');
      },
      write: (runner) => this.sessions.close(runner, scope, command.sessionID),
      event: 'session.closed',
      extra: () => ({ closedByOperatorID: operatorID }),
      clearOthers: true,
    });
  }
}
