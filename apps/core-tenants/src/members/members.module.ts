import { Module } from '@nestjs/common';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { MemberChange } from './member-change';
import { MemberStanding } from './member-standing';
import { MembersRepository } from './members.repository';
import { MembersRpcController } from './members.rpc-controller';
import { RemoveMemberUseCase } from './remove-member.use-case';

/** A tenant's members: the list, role changes and removals asked for by services-api (docs/team.md). */
@Module({
  controllers: [MembersRpcController],
  providers: [MembersRepository, MemberChange, MemberStanding, ListMembersUseCase, ChangeMemberRoleUseCase, RemoveMemberUseCase],
})
export class MembersModule {}
