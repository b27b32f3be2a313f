import { RecordingAuditTrail } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { OperatorsRepository } from './operators.repository';
import { WithdrawInvitationUseCase } from './withdraw-invitation.use-case';

describe('WithdrawInvitationUseCase', () => {
  it('deletes an invitation never accepted, and answers false once there is none', async () => {
    const pending = new Set(['inv-1']);
    const audit = new RecordingAuditTrail();
    const repository = {
      transaction: async <T>(work: (runner: unknown) => Promise<T>) => work({ query: async () => [] }),
      withdrawInvitation: async (id: string) => (pending.delete(id) ? 'tenant-1' : undefined),
    } as unknown as OperatorsRepository;
    const useCase = new WithdrawInvitationUseCase(repository, audit.asTrail());
    expect(await useCase.execute({ invitationID: 'inv-1' })).toEqual({ withdrawn: true });
    expect(await useCase.execute({ invitationID: 'inv-1' })).toEqual({ withdrawn: false });
    expect(audit.records.map(({ tenantID, record }) => [tenantID, record.action, record.targetID])).toEqual([['tenant-1', 'invitation.revoked', 'inv-1']]);
  });
});
