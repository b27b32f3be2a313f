import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import type { TenantScope } from '@platform/auth';
import type { ListPendingInvitationsReply } from '@platform/contracts';
import { OperatorsRepository } from './operators.repository';

export interface ListPendingInvitationsCommand {
  /** The tenant services-api checked the reader's ownership of. */
  scope: TenantScope;
  offset: number;
  limit: number;
}

/**
 * One page of a tenant's pending invitations: not accepted and not expired
 * at this moment. Revoked invitations are gone (a revocation deletes them).
 */
@Injectable()
export class ListPendingInvitationsUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: ListPendingInvitationsCommand): Promise<ListPendingInvitationsReply> {
    const now = this.clock.now();
    const totalCount = await this.operators.pendingInvitationCount(command.scope, now);
    const invitations = command.offset < totalCount ? await this.operators.pendingInvitations(command.scope, now, command.limit, command.offset) : [];
    return { totalCount, invitations };
  }
}
