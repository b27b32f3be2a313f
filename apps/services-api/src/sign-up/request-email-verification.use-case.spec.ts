import type { Clock } from '@platform/scheduling';
import type { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import type { EmailDomainCheck } from './email-domain-check';
import type { SignUpMailJob, VerificationMailJob } from './mail/sign-up-mail.job';
import type { SignUpMailQueue } from './mail/sign-up-mail.queue';
import { RequestEmailVerificationUseCase } from './request-email-verification.use-case';
import { SignUpKeys } from './sign-up-keys';
import type { IssueOutcome, VerificationStore } from './verification-store';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const keys = new SignUpKeys('a test secret of enough length');
const clock: Clock = { now: () => new Date(NOW) };
const IP_LIMIT: RateLimitRule = { name: 'email-verification:ip', limit: 10, windowSeconds: 60 };
const PREVIOUS = { fields: ['codeHash', 'old'], pttl: 30_000 };

/** The verification store (Redis), the mail queue and the limits, as the use case reaches them. */
class World {
  entries = new Map<string, string>();
  restored: string[] = [];
  mails: SignUpMailJob[] = [];
  queueDown = false;
  ipAllowed = true;
  addressLimited = false;

  useCase(): RequestEmailVerificationUseCase {
    const store = fake<VerificationStore>({
      issue: async (address: string, request: { nonce: string; codeHash: string }): Promise<IssueOutcome> => {
        if (this.addressLimited) return { issued: false, retryAfterMs: 42_500 };
        this.entries.set(address, request.codeHash);
        return { issued: true, previous: PREVIOUS };
      },
      restore: async (address: string) => {
        this.entries.delete(address);
        this.restored.push(address);
      },
    });
    const queue = fake<SignUpMailQueue>({
      enqueue: async (job: SignUpMailJob) => {
        if (this.queueDown) throw new Error('connect ECONNREFUSED');
        this.mails.push(job);
      },
    });
    const domains = fake<EmailDomainCheck>({ check: async (domain: string) => (domain === 'mailinator.com' ? 'disposable' : 'accepted') });
    const limiter = fake<RateLimiter>({ hit: async () => ({ allowed: this.ipAllowed, retryAfterSeconds: 9 }) });
    return new RequestEmailVerificationUseCase(store, queue, domains, keys, clock, limiter, IP_LIMIT);
  }
}

const request = { operatorEmail: ' Ana@Acme.com.br ', operatorFirstname: 'Ana', clientIp: '203.0.113.7', language: 'pt-BR' as const };
const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as AppException);

describe('RequestEmailVerificationUseCase', () => {
  it('stores a new code and queues its mail, sealed, for the normalised address', async () => {
    const world = new World();
    expect(await world.useCase().execute(request)).toEqual({ expiresInSeconds: 600, resendAfterSeconds: 60 });
    const mail = world.mails[0] as VerificationMailJob;
    expect(mail).toMatchObject({ kind: 'verification', to: 'ana@acme.com.br', firstname: 'Ana', expiresAt: NOW + 600_000 });
    expect(world.entries.get('ana@acme.com.br')).toBe(keys.codeHash('ana@acme.com.br', keys.unseal(mail.sealedCode)));
  });

  it('refuses a client over its limit (429 1071), a disposable domain (422 1847) and an address asked for too soon (429 with its wait)', async () => {
    const limited = new World();
    limited.ipAllowed = false;
    expect(await errorOf(limited.useCase().execute(request))).toMatchObject({ code: 1071, retryAfterSeconds: 9 });
    expect((await errorOf(new World().useCase().execute({ ...request, operatorEmail: 'someone@mailinator.com' })))?.code).toBe(1847);
    const tooSoon = new World();
    tooSoon.addressLimited = true;
    expect(await errorOf(tooSoon.useCase().execute(request))).toMatchObject({ code: 1071, retryAfterSeconds: 43 });
    expect([...limited.mails, ...tooSoon.mails]).toEqual([]);
  });

  it('puts the previous code back when the mail cannot be queued: 503 5016', async () => {
    const world = new World();
    world.queueDown = true;
    expect((await errorOf(world.useCase().execute(request)))?.code).toBe(5016);
    expect(world.restored).toEqual(['ana@acme.com.br']);
    expect(world.entries.size).toBe(0);
  });
});
