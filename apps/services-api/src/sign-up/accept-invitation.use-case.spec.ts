import { hashSecretToken } from '@platform/auth';
import type { AcceptInvitationReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import type { OperatorsClient } from './operators.client';

const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';

function setUp(answer: () => Promise<AcceptInvitationReply>) {
  const asked: { operatorID: string; tokenHash: string }[] = [];
  const client = fake<OperatorsClient>({
    acceptInvitation: async (operatorID: string, tokenHash: string) => {
      asked.push({ operatorID, tokenHash });
      return answer();
    },
  });
  return { useCase: new AcceptInvitationUseCase(client), asked };
}

const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as AppException);

describe('AcceptInvitationUseCase', () => {
  it('asks core-tenants with the token hash and answers the tenant joined', async () => {
    const { useCase, asked } = setUp(async () => ({ outcome: 'accepted', tenantID: TENANT, role: 'member' }));
    expect(await useCase.execute({ operatorID: 'op-1', invitationToken: 'the-token' })).toEqual({ tenantID: TENANT, role: 'member' });
    expect(asked).toEqual([{ operatorID: 'op-1', tokenHash: hashSecretToken('the-token') }]);
  });

  it('answers an unusable invitation with the one 400 naming invitationToken', async () => {
    const { useCase } = setUp(async () => ({ outcome: 'unusable' }));
    const error = await errorOf(useCase.execute({ operatorID: 'op-1', invitationToken: 'the-token' }));
    expect([error?.code, error?.fields]).toEqual([
      1002,
      [{ field: 'invitationToken', allowed: 'an unused, unexpired invitation token for operatorEmail' }],
    ]);
  });

  it('answers 503 5903 when the transport fails or core-tenants does not answer in time', async () => {
    for (const key of ['InternalServiceUnavailable', 'InternalServiceTimeout'] as const) {
      const { useCase } = setUp(async () => Promise.reject(new AppException(key)));
      expect((await errorOf(useCase.execute({ operatorID: 'op-1', invitationToken: 'the-token' })))?.code).toBe(5903);
    }
  });
});
