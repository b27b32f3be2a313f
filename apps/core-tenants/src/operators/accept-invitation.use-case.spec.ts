import type { Clock } from '@platform/scheduling';
import { fake, RecordingAuditTrail, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import type { InvitationRow, OperatorsRepository } from './operators.repository';
import type { MemberStanding } from '../members/member-standing';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const TOKEN_HASH = 'b'.repeat(64);

class FakeOperators {
  emails = new Map<string, string>([['op-1', 'ana@acme.com.br']]);
  invitation: InvitationRow | undefined = { id: 'inv-1', tenantID: TENANT, email: 'ana@acme.com.br', expiresAt: new Date(NOW + 1), acceptedAt: null };
  memberships: string[] = [];
  audit = new RecordingAuditTrail();
  webhooks = new RecordingWebhookEvents();

  asRepository(): OperatorsRepository {
    return fake<OperatorsRepository>({
      emailOf: async (operatorID: string) => this.emails.get(operatorID),
      transaction: transactionOn(),
      lockInvitationByTokenHash: async (_runner: object, tokenHash: string) => (tokenHash === TOKEN_HASH ? this.invitation : undefined),
      acceptInvitation: async (_runner: object, invitation: InvitationRow, operatorID: string, now: Date) => {
        this.memberships.push(`${invitation.tenantID}:${operatorID}`);
        invitation.acceptedAt = now;
      },
    });
  }
}

const clock: Clock = { now: () => new Date(NOW) };

/** The standings forgotten on every replica, as `<tenant>:<operator>`. */
function recordingStanding(): { standing: MemberStanding; forgotten: string[] } {
  const forgotten: string[] = [];
  return { standing: fake<MemberStanding>({ forget: async (scope, operatorID) => void forgotten.push(`${scope.tenantID}:${operatorID}`) }), forgotten };
}

describe('AcceptInvitationUseCase', () => {
  it('makes the operator a member of the inviting tenant, once, and forgets their standing there on every replica', async () => {
    const fake = new FakeOperators();
    const { standing, forgotten } = recordingStanding();
    const useCase = new AcceptInvitationUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST, standing);
    expect(await useCase.execute({ operatorID: 'op-1', tokenHash: TOKEN_HASH })).toEqual({ outcome: 'accepted', tenantID: TENANT, role: 'member' });
    expect(await useCase.execute({ operatorID: 'op-1', tokenHash: TOKEN_HASH })).toEqual({ outcome: 'unusable' });
    expect(fake.memberships).toEqual([`${TENANT}:op-1`]);
    expect(forgotten).toEqual([`${TENANT}:op-1`]);
    expect(fake.audit.records.map(({ tenantID, record }) => [tenantID, record.action, record.targetID])).toEqual([[TENANT, 'invitation.accepted', 'inv-1']]);
    expect(fake.webhooks.events.map(({ tenantID, event }) => [tenantID, event])).toEqual([
      [TENANT, { type: 'invitation.accepted', subject: 'member:op-1', data: { invitationID: 'inv-1', operatorID: 'op-1', role: 'member' } }],
    ]);
  });

  it('refuses an invitation for another address, an expired one, an unknown token and an unknown operator, writing nothing', async () => {
    const fake = new FakeOperators();
    fake.emails.set('op-2', 'bia@acme.com.br');
    const { standing, forgotten } = recordingStanding();
    const useCase = new AcceptInvitationUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST, standing);
    expect(await useCase.execute({ operatorID: 'op-2', tokenHash: TOKEN_HASH })).toEqual({ outcome: 'unusable' });
    expect(await useCase.execute({ operatorID: 'op-1', tokenHash: 'c'.repeat(64) })).toEqual({ outcome: 'unusable' });
    expect(await useCase.execute({ operatorID: 'op-9', tokenHash: TOKEN_HASH })).toEqual({ outcome: 'unusable' });
    fake.invitation!.expiresAt = new Date(NOW);
    expect(await useCase.execute({ operatorID: 'op-1', tokenHash: TOKEN_HASH })).toEqual({ outcome: 'unusable' });
    expect(fake.memberships).toEqual([]);
    expect(fake.audit.records).toEqual([]);
    expect(fake.webhooks.events).toEqual([]);
    expect(forgotten).toEqual([]);
  });
});
