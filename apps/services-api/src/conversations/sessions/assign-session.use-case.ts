import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { OperatorCapacity } from '../routing/operator-capacity';
import { TenantRoles } from './session-access';
import { SessionChanges } from './session-changes';
import { SessionsRepository } from './sessions.repository';

export interface AssignSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
  /** Canonical (the request rule). */
  operatorID: string;
  /** Go past the capacity of the inbox's routing policy (owners only, as assigning is). */
  override: boolean;
}

/**
 * An owner assigns a queued session to a member of the tenant (404 1990 for
 * anyone else), who gets an `assignment` notification unless they assigned
 * it themself. Owners reach every session of the tenant, listed or not. An
 * assigned session is transferred instead (409 1943).
 */
@Injectable()
export class AssignSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly roles: TenantRoles,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
    private readonly capacity: OperatorCapacity,
  ) {}

  async execute(command: AssignSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    await this.roles.requireMember(scope, command.operatorID);
    const byOther = command.operatorID !== command.principal.operatorID;
    return this.changes.apply(scope, command.sessionID, existing, {
      check: (before) => {
        if (before.session.sessionState === 'assigned') throw new AppException('SessionAlreadyAssigned');
      },
      write: async (runner, before) => {
        await this.capacity.admit(runner, { tenantID: scope.tenantID, inboxID: before.session.inboxID, operatorID: command.operatorID, override: command.override });
        await this.sessions.assign(runner, scope, command.sessionID, command.operatorID);
      },
      event: 'session.assigned',
      extra: () => ({ assignedByOperatorID: command.principal.operatorID, assignedBy: 'operator' as const }),
      assignedTo: byOther ? command.operatorID : undefined,
      clearOthers: true,
    });
  }
}

/** An owner's reach: any session of the tenant (404 1060 only for one it does not have). */
export function existing<View>(view: View | undefined): View {
  if (!view) throw new AppException('SessionNotFound');
  return view;
}
