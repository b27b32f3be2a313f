import type { Clock } from '@platform/scheduling';
import { hashSecretToken, verifyPassword } from '@platform/auth';
import type { RegisterOperatorPayload, RegisterOperatorReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import type { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { CompleteSignUpCommand, CompleteSignUpUseCase } from './complete-sign-up.use-case';
import type { OperatorTokenClient } from './operator-token.client';
import type { OperatorsClient } from './operators.client';
import { SignUpKeys } from './sign-up-keys';
import type { VerificationStore, VerifyOutcome } from './verification-store';

const keys = new SignUpKeys('a test secret of enough length');
const clock: Clock = { now: () => new Date('2026-03-01T12:00:00Z') };
const IP_LIMIT: RateLimitRule = { name: 'sign-up:ip', limit: 10, windowSeconds: 60 };

/** core-tenants as sign-up sees it: what it was asked, and what it answers (or how the transport fails). */
class FakeCoreTenants {
  registered: RegisterOperatorPayload[] = [];
  invitationChecks = 0;
  reply: RegisterOperatorReply = { outcome: 'registered', operatorID: 'op-1' };
  usable = true;
  failure: AppException | undefined;

  asClient(): OperatorsClient {
    return fake<OperatorsClient>({
      register: async (payload: RegisterOperatorPayload) => {
        if (this.failure) throw this.failure;
        this.registered.push(payload);
        return this.reply;
      },
      invitationUsable: async () => {
        if (this.failure) throw this.failure;
        this.invitationChecks += 1;
        return this.usable;
      },
    });
  }
}

function setUp(options: { verify?: VerifyOutcome; allowed?: boolean } = {}) {
  const coreTenants = new FakeCoreTenants();
  const store = fake<VerificationStore>({ verify: async () => options.verify ?? 'ok' });
  const tokens = fake<OperatorTokenClient>({ issue: async (operatorID: string) => `token-of-${operatorID}` });
  const limiter = fake<RateLimiter>({ hit: async () => ({ allowed: options.allowed ?? true, retryAfterSeconds: 7 }) });
  const useCase = new CompleteSignUpUseCase(store, coreTenants.asClient(), keys, clock, tokens, limiter, IP_LIMIT);
  return { useCase, coreTenants };
}

const command = (overrides: Partial<CompleteSignUpCommand> = {}): CompleteSignUpCommand => ({
  operatorEmail: ' Ana@Acme.com.br ',
  operatorFirstname: ' Ana ',
  operatorLastname: '  ',
  password: 'a long enough secret',
  emailVerificationCode: '123456',
  clientIp: '203.0.113.7',
  ...overrides,
});

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppException)) throw new Error(`expected an AppException, got ${String(error)}`);
  return { code: error.code, fields: error.fields, retryAfterSeconds: error.retryAfterSeconds };
};

describe('CompleteSignUpUseCase', () => {
  it('asks core-tenants to create the operator once the code verifies, with the password hashed, and answers its token', async () => {
    const { useCase, coreTenants } = setUp();
    expect(await useCase.execute(command())).toEqual({ operatorID: 'op-1', operatorEmail: 'ana@acme.com.br', token: 'token-of-op-1' });
    const [sent] = coreTenants.registered;
    expect(sent).toMatchObject({ email: 'ana@acme.com.br', firstname: 'Ana', lastname: null });
    expect(sent!.invitationTokenHash).toBeUndefined();
    expect(await verifyPassword(sent!.passwordHash, 'a long enough secret')).toBe(true);
  });

  it('answers an address that already has an account exactly as a wrong code', async () => {
    const taken = setUp();
    taken.coreTenants.reply = { outcome: 'email-taken' };
    const wrong = setUp({ verify: 'wrong' });
    const takenRefusal = await refusal(taken.useCase.execute(command()));
    expect(takenRefusal).toEqual(await refusal(wrong.useCase.execute(command())));
    expect(takenRefusal).toMatchObject({ code: 1002, fields: [{ field: 'emailVerificationCode', received: '123456' }] });
    expect(wrong.coreTenants.registered).toEqual([]);
  });

  it('refuses a client over its limit before anything else: 429 1071 with its wait', async () => {
    const { useCase, coreTenants } = setUp({ allowed: false });
    expect(await refusal(useCase.execute(command()))).toMatchObject({ code: 1071, retryAfterSeconds: 7 });
    expect(coreTenants.registered).toEqual([]);
  });

  it('with an invitation, looks first and sends only the token hash; an unusable invitation costs no registration', async () => {
    const { useCase, coreTenants } = setUp();
    await useCase.execute(command({ emailVerificationCode: undefined, invitationToken: 'the-token' }));
    expect(coreTenants.registered[0]!.invitationTokenHash).toBe(hashSecretToken('the-token'));

    const refused = setUp();
    refused.coreTenants.usable = false;
    expect(await refusal(refused.useCase.execute(command({ invitationToken: 'the-token' })))).toMatchObject({
      code: 1002,
      fields: [{ field: 'invitationToken', allowed: expect.any(String) }],
    });
    expect(refused.coreTenants.registered).toEqual([]);
  });

  it('answers an invitation refused under the lock (used meanwhile, or the address has an account) as an invalid token', async () => {
    const { useCase, coreTenants } = setUp();
    coreTenants.reply = { outcome: 'invitation-unusable' };
    expect(await refusal(useCase.execute(command({ invitationToken: 'the-token' })))).toMatchObject({ fields: [{ field: 'invitationToken' }] });
  });

  it.each(['InternalServiceUnavailable', 'InternalServiceTimeout'] as const)(
    'answers 503 5903 when core-tenants cannot be asked (%s), as when the database was unreachable',
    async (key) => {
      const { useCase, coreTenants } = setUp();
      coreTenants.failure = new AppException(key);
      expect(await refusal(useCase.execute(command()))).toMatchObject({ code: 5903 });
      expect(await refusal(useCase.execute(command({ invitationToken: 'the-token' })))).toMatchObject({ code: 5903 });
    },
  );
});
