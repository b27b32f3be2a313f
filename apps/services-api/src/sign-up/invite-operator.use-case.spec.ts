import type { Clock } from '@platform/scheduling';
import { hashSecretToken } from '@platform/auth';
import type { CreateInvitationPayload } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { capturedLogs } from '@platform/testing-doubles';
import type { EmailDomainCheck } from './email-domain-check';
import { InviteOperatorUseCase } from './invite-operator.use-case';
import type { InvitationMailJob, SignUpMailJob } from './mail/sign-up-mail.job';
import type { SignUpMailQueue } from './mail/sign-up-mail.queue';
import type { OperatorsClient } from './operators.client';
import { SignUpKeys } from './sign-up-keys';

const TENANT = '5D1E0F3A-8C2B-4D6E-9F10-112233445566';
const NOW = Date.parse('2026-03-01T12:00:00Z');
const TTL_MS = 168 * 3_600_000;
const keys = new SignUpKeys('a test secret of enough length');
const clock: Clock = { now: () => new Date(NOW) };
const principal = { kind: 'operator', operatorID: 'op-owner' } as const;

/** core-tenants' invitations as services-api reaches them, and the mail queue. */
class World {
  invitations = new Map<string, CreateInvitationPayload>();
  withdrawn: string[] = [];
  mails: SignUpMailJob[] = [];
  createFailure: AppException | undefined;
  queueDown = false;
  withdrawalLost = false;
  owner = true;
  domain: 'accepted' | 'disposable' = 'accepted';

  useCase(): InviteOperatorUseCase {
    const access = new FakeTenantAccess();
    if (!this.owner) access.refusal = 'Forbidden';
    const operators = fake<OperatorsClient>({
      createInvitation: async (payload: CreateInvitationPayload) => {
        if (this.createFailure) throw this.createFailure;
        this.invitations.set(payload.invitationID, payload);
        return { invitationID: payload.invitationID, tenantName: 'Acme Atendimento', inviterName: 'Olivia' };
      },
      withdrawInvitation: async (invitationID: string) => {
        if (this.withdrawalLost) throw new AppException('InternalServiceTimeout');
        this.withdrawn.push(invitationID);
        return this.invitations.delete(invitationID);
      },
    });
    const domains = fake<EmailDomainCheck>({ check: async () => this.domain });
    const queue = fake<SignUpMailQueue>({
      enqueue: async (job: SignUpMailJob) => {
        if (this.queueDown) throw new Error('connect ECONNREFUSED');
        this.mails.push(job);
      },
    });
    return new InviteOperatorUseCase(access.asAccess(), operators, domains, queue, keys, clock, TTL_MS);
  }
}

const command = { principal, tenantID: TENANT, operatorEmail: ' Ana@Acme.com.br ', language: 'pt-BR' as const, idempotency: NO_IDEMPOTENCY_KEY };
const codeOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (error as AppException).code);

describe('InviteOperatorUseCase', () => {
  it('has core-tenants record the invitation under an id chosen here, then queues its mail with the sealed token', async () => {
    const world = new World();
    const answer = await world.useCase().execute(command);
    const tenantID = TENANT.toLowerCase();
    expect(answer).toEqual({ invitationID: expect.any(String), tenantID, operatorEmail: 'ana@acme.com.br', expiresAt: new Date(NOW + TTL_MS).toISOString() });
    const recorded = world.invitations.get(answer.invitationID)!;
    expect(recorded).toMatchObject({ tenantID, email: 'ana@acme.com.br', invitedBy: 'op-owner', expiresAt: answer.expiresAt });
    const mail = world.mails[0] as InvitationMailJob;
    expect(mail).toMatchObject({ kind: 'invitation', to: 'ana@acme.com.br', invitationID: answer.invitationID, tenantName: 'Acme Atendimento', inviterName: 'Olivia' });
    // Only the hash reached core-tenants; the token travels sealed in the mail job.
    expect(recorded.tokenHash).toBe(hashSecretToken(keys.unseal(mail.sealedToken)));
  });

  it('checks access first, then the domain: nothing recorded, nothing queued', async () => {
    const outsider = new World();
    outsider.owner = false;
    expect(await codeOf(outsider.useCase().execute(command))).toBe(1004);
    const disposable = new World();
    disposable.domain = 'disposable';
    expect(await codeOf(disposable.useCase().execute(command))).toBe(1847);
    expect([...outsider.invitations.values(), ...disposable.invitations.values(), ...outsider.mails, ...disposable.mails]).toEqual([]);
  });

  it.each(['InternalServiceUnavailable', 'InternalServiceTimeout'] as const)(
    'answers 503 5016 when recording the invitation fails (%s), and queues no mail',
    async (key) => {
      const world = new World();
      world.createFailure = new AppException(key);
      expect(await codeOf(world.useCase().execute(command))).toBe(5016);
      expect(world.mails).toEqual([]);
    },
  );

  it('withdraws the invitation when its mail cannot be queued: 503 5016, nothing left', async () => {
    const world = new World();
    world.queueDown = true;
    expect(await codeOf(world.useCase().execute(command))).toBe(5016);
    expect(world.withdrawn).toHaveLength(1);
    expect(world.invitations.size).toBe(0);
    expect(capturedLogs.lines('SignUp').map(({ level, message }) => [level, (message as { err: Error }).err.message])).toContainEqual(['error', 'connect ECONNREFUSED']);
  });

  it('still answers 503 5016 when the withdrawal is lost too (the row is unusable: its token was never sent)', async () => {
    const world = new World();
    world.queueDown = true;
    world.withdrawalLost = true;
    expect(await codeOf(world.useCase().execute(command))).toBe(5016);
    expect(world.mails).toEqual([]);
  });
});
