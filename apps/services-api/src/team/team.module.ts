import { Module } from '@nestjs/common';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { ListPendingInvitationsUseCase } from './list-pending-invitations.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';
import { RevokeInvitationUseCase } from './revoke-invitation.use-case';
import { TeamClient } from './team.client';
import { TeamController } from './team.controller';

/** Team management: a tenant's members and pending invitations (docs/team.md). */
@Module({
  controllers: [TeamController],
  providers: [TeamClient, ListMembersUseCase, ChangeMemberRoleUseCase, RemoveMemberUseCase, ListPendingInvitationsUseCase, RevokeInvitationUseCase],
})
export class TeamModule {}
