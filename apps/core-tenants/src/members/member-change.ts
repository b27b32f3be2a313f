import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { Member } from '@platform/contracts';
import type { SqlRunner } from '@platform/database';
import { AppException } from '@platform/errors';
import { MembersRepository } from './members.repository';

/**
 * The checks every membership change makes inside its transaction, after
 * taking the tenant's membership lock, so two changes of one tenant never
 * both pass on the same state (two owners demoting each other at once: the
 * second finds its actor demoted).
 */
@Injectable()
export class MemberChange {
  constructor(private readonly members: MembersRepository) {}

  /**
   * Locks the tenant, then answers the operator's membership. 403 1004 when
   * the actor no longer owns the tenant (a change committed since
   * services-api checked), 404 1990 when the operator is not a member.
   */
  async lockedMember(runner: SqlRunner, scope: TenantScope, actorOperatorID: string, operatorID: string): Promise<Member> {
    await this.members.lockTenant(runner, scope);
    const actor = await this.members.member(runner, scope, actorOperatorID);
    if (actor?.role !== 'owner') throw new AppException('Forbidden');
    const member = await this.members.member(runner, scope, operatorID);
    if (!member) throw new AppException('MemberNotFound');
    return member;
  }

  /** 409 1991 unless an owner other than the one changing remains. */
  async requireAnotherOwner(runner: SqlRunner, scope: TenantScope): Promise<void> {
    if ((await this.members.ownerCount(runner, scope)) <= 1) throw new AppException('LastOwner');
  }
}
