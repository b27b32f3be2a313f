import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, PluginConnectionPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { maySee, sessionVisibilityOf } from './session-visibility';
import { sessionEventDataOf } from '../conversation-events';
import type { SessionView } from './sessions.repository';

export type ConversationPrincipal = OperatorPrincipal | PluginConnectionPrincipal;

/**
 * Who may reach a session of the tenant (docs/conversations.md#who-may-do-what):
 * the one visibility rule operation 11 lists by (session-visibility.ts): an
 * operator who may see it, and the plugin connection of its inbox. Anyone
 * else of the tenant gets 404 1060, as for a session the tenant does not
 * have: a session one may not see is not told to exist.
 */
export function maySeeSession(principal: ConversationPrincipal, view: SessionView): boolean {
  return maySee(sessionVisibilityOf(principal), sessionEventDataOf(view));
}

export function refuseUnseen(principal: ConversationPrincipal, view: SessionView | undefined): SessionView {
  if (!view || !maySeeSession(principal, view)) throw new AppException('SessionNotFound');
  return view;
}

/** True when the check passes, false when it refuses with 403 1004; any other failure stands. */
async function passes(check: Promise<void>): Promise<boolean> {
  return check.then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppException && error.key === 'Forbidden') return false;
      throw error;
    },
  );
}

/** Whether an operator owns the tenant, asked without failing (the standing is cached: docs/authentication.md). */
@Injectable()
export class TenantRoles {
  constructor(private readonly access: TenantAccessService) {}

  async isOwner(principal: OperatorPrincipal, tenantID: string): Promise<boolean> {
    return passes(this.access.check(principal, tenantID, { ownerOnly: true }));
  }

  /** Refuses (404 1990) an operator who is not a member of the tenant. */
  async requireMember(scope: TenantScope, operatorID: string): Promise<void> {
    if (!(await passes(this.access.check({ kind: 'operator', operatorID }, scope.tenantID)))) throw new AppException('MemberNotFound');
  }
}
