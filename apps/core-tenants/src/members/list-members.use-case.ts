import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { ListMembersReply, MemberRole } from '@platform/contracts';
import { MembersRepository } from './members.repository';

export interface ListMembersCommand {
  /** The tenant services-api checked the reader's membership of. */
  scope: TenantScope;
  role?: MemberRole;
  offset: number;
  limit: number;
}

/** One page of a tenant's members and how many there are; no rows are read for a page past the end. */
@Injectable()
export class ListMembersUseCase {
  constructor(private readonly members: MembersRepository) {}

  async execute(command: ListMembersCommand): Promise<ListMembersReply> {
    const totalCount = await this.members.count(command.scope, command.role);
    const members = command.offset < totalCount ? await this.members.page(command.scope, command.role, command.limit, command.offset) : [];
    return { totalCount, members };
  }
}
