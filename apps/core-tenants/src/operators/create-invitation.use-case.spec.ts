import { AppException } from '@platform/errors';
import { fake, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CreateInvitationUseCase } from './create-invitation.use-case';
import type { NewInvitation, OperatorsRepository } from './operators.repository';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';

/** The invitations table keyed by id, as the insert's ON CONFLICT (id) DO NOTHING keeps it. */
class FakeOperators {
  invitations = new Map<string, NewInvitation>();
  audit = new RecordingAuditTrail();

  asRepository(): OperatorsRepository {
    return fake<OperatorsRepository>({
      invitationContext: async (tenantID: string) => (tenantID === TENANT ? { tenantName: 'Acme Atendimento', inviterName: 'Olivia' } : undefined),
      transaction: transactionOn(),
      createInvitation: async (invitation: NewInvitation) => {
        if (this.invitations.has(invitation.id)) return false;
        this.invitations.set(invitation.id, invitation);
        return true;
      },
    });
  }
}

const command = (overrides: Partial<NewInvitation> = {}): NewInvitation => ({
  id: '0c8a4b1e-5d2f-4e3a-9b6c-7d8e9f0a1b2c',
  tenantID: TENANT,
  email: 'ana@acme.com.br',
  tokenHash: 'f'.repeat(64),
  invitedBy: 'op-1',
  expiresAt: new Date('2026-03-08T12:00:00Z'),
  ...overrides,
});

describe('CreateInvitationUseCase', () => {
  it('records the invitation and answers what its mail names', async () => {
    const fake = new FakeOperators();
    const reply = await new CreateInvitationUseCase(fake.asRepository(), fake.audit.asTrail(), NOT_A_TRANSPORT_REQUEST).execute(command());
    expect(reply).toEqual({ invitationID: command().id, tenantName: 'Acme Atendimento', inviterName: 'Olivia' });
    expect([...fake.invitations.values()]).toEqual([command()]);
  });

  it('records one invitation however often the same id is asked for', async () => {
    const fake = new FakeOperators();
    const useCase = new CreateInvitationUseCase(fake.asRepository(), fake.audit.asTrail(), NOT_A_TRANSPORT_REQUEST);
    await useCase.execute(command());
    await useCase.execute(command());
    expect(fake.invitations.size).toBe(1);
    expect(fake.audit.actions()).toEqual(['invitation.sent']);
  });

  it('refuses a tenant that is gone: 404 1062, nothing recorded', async () => {
    const fake = new FakeOperators();
    const refused = new CreateInvitationUseCase(fake.asRepository(), fake.audit.asTrail(), NOT_A_TRANSPORT_REQUEST).execute(command({ tenantID: '3f1c9a52-7a4e-4d8b-9a61-0c2f5e8b7d10' }));
    await expect(refused).rejects.toSatisfy((error: unknown) => error instanceof AppException && error.key === 'TenantNotFound');
    expect(fake.invitations.size).toBe(0);
    expect(fake.audit.records).toEqual([]);
  });
});
