import { fake, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { OperatorsRepository } from './operators.repository';
import { WithdrawInvitationUseCase } from './withdraw-invitation.use-case';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

describe('WithdrawInvitationUseCase', () => {
  it('deletes an invitation never accepted, and answers false once there is none', async () => {
    const pending = new Set(['inv-1']);
    const audit = new RecordingAuditTrail();
    const repository = fake<OperatorsRepository>({
      transaction: transactionOn(),
      withdrawInvitation: async (id: string, _runner?: unknown, tenantID?: string) =>
        (tenantID === undefined || tenantID === 'tenant-1') && pending.delete(id) ? 'tenant-1' : undefined,
    });
    const useCase = new WithdrawInvitationUseCase(repository, audit.asTrail(), NOT_A_TRANSPORT_REQUEST);
    expect(await useCase.execute({ invitationID: 'inv-1', reason: 'mailNotQueued' })).toEqual({ withdrawn: true });
    expect(await useCase.execute({ invitationID: 'inv-1', reason: 'mailNotQueued' })).toEqual({ withdrawn: false });
    expect(audit.records.map(({ tenantID, record }) => [tenantID, record.action, record.targetID, record.summary])).toEqual([
      ['tenant-1', 'invitation.revoked', 'inv-1', { reason: 'invitation mail could not be queued' }],
    ]);
  });

  it("revokes an owner's invitation of their own tenant only, recording why", async () => {
    const pending = new Set(['inv-1']);
    const audit = new RecordingAuditTrail();
    const repository = fake<OperatorsRepository>({
      transaction: transactionOn(),
      withdrawInvitation: async (id: string, _runner?: unknown, tenantID?: string) => (tenantID === 'tenant-1' && pending.delete(id) ? 'tenant-1' : undefined),
    });
    const useCase = new WithdrawInvitationUseCase(repository, audit.asTrail(), NOT_A_TRANSPORT_REQUEST);
    await expect(useCase.execute({ invitationID: 'inv-1', tenantID: 'tenant-2', reason: 'revokedByOwner' })).rejects.toMatchObject({ key: 'InvitationNotFound' });
    expect(await useCase.execute({ invitationID: 'inv-1', tenantID: 'tenant-1', reason: 'revokedByOwner' })).toEqual({ withdrawn: true });
    expect(audit.records.map(({ record }) => record.summary)).toEqual([{ reason: 'revoked by an owner' }]);
  });
});
