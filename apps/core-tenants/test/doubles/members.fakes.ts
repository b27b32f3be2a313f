import type { Member, MemberRole } from '@platform/contracts';
import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingAuditTrail, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { MemberChange } from '../../src/members/member-change';
import { MemberStanding } from '../../src/members/member-standing';
import type { MembersRepository } from '../../src/members/members.repository';

export const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';

/** One tenant's memberships in memory, with what the use cases recorded, emitted and forgot. */
export class FakeMembers {
  readonly roles = new Map<string, MemberRole>();
  readonly audit = new RecordingAuditTrail();
  readonly webhooks = new RecordingWebhookEvents();
  readonly access = new FakeTenantAccess();
  readonly runner: SqlRunner = { query: async () => [] };
  locks = 0;

  constructor(roles: Record<string, MemberRole>) {
    for (const [operatorID, role] of Object.entries(roles)) this.roles.set(operatorID, role);
  }

  asRepository(): MembersRepository {
    const member = (operatorID: string): Member | undefined => {
      const role = this.roles.get(operatorID);
      return role && { operatorID, operatorEmail: `${operatorID}@acme.com.br`, operatorFirstname: 'Ana', operatorLastname: null, role, joinedAt: '2026-03-01T12:00:00.000Z' };
    };
    return fake<MembersRepository>({
      transaction: transactionOn(this.runner),
      lockTenant: async () => {
        this.locks += 1;
        return true;
      },
      member: async (_runner: unknown, _scope: unknown, operatorID: string) => member(operatorID),
      ownerCount: async () => [...this.roles.values()].filter((role) => role === 'owner').length,
      setRole: async (_runner: unknown, _scope: unknown, operatorID: string, role: MemberRole) => {
        this.roles.set(operatorID, role);
      },
      remove: async (_runner: unknown, _scope: unknown, operatorID: string) => {
        this.roles.delete(operatorID);
      },
    });
  }

  /** The collaborators every membership change takes, in constructor order after the repository. */
  parts(): [MembersRepository, MemberChange, ReturnType<RecordingAuditTrail['asTrail']>, ReturnType<RecordingWebhookEvents['asEvents']>, MemberStanding] {
    const repository = this.asRepository();
    return [repository, new MemberChange(repository), this.audit.asTrail(), this.webhooks.asEvents(), new MemberStanding(this.access.asAccess())];
  }
}
