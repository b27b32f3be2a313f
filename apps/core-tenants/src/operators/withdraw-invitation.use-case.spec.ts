import { fake, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { OperatorsRepository } from './operators.repository';
import { WithdrawInvitationUseCase } from './withdraw-invitation.use-case';

describe('WithdrawInvitationUseCase', () => {
  it('deletes an invitation never accepted, and answers false once there is none', async () => {
    const pending = new Set(['inv-1']);
    const audit = new RecordingAuditTrail();
    const repository = fake<OperatorsRepository>({
      transaction: transactionOn(),
      withdrawInvitation: async (id: string) => (pending.delete(id) ? 'tenant-1' : undefined),
    });
    const useCase = new WithdrawInvitationUseCase(repository, audit.asTrail());
    expect(await useCase.execute({ invitationID: 'inv-1' })).toEqual({ withdrawn: true });
    expect(await useCase.execute({ invitationID: 'inv-1' })).toEqual({ withdrawn: false });
    expect(audit.records.map(({ tenantID, record }) => [tenantID, record.action, record.targetID])).toEqual([['tenant-1', 'invitation.revoked', 'inv-1']]);
  });
});
