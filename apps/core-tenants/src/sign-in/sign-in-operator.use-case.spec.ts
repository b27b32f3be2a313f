import { hashPassword, PasswordWork } from '@platform/auth';
import type { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { beforeAll, describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import type { OperatorTokenSigner } from '../signing/operator-token.signer';
import type { KnownSignInClients } from './known-sign-in-clients';
import type { OperatorCredentials, OperatorCredentialsRepository } from './operator-credentials.repository';
import { SignInLimits, SignInOperatorUseCase } from './sign-in-operator.use-case';

const anaID = 'a1b2c3d4-0000-4000-8000-000000000001';
const password = 'correct horse battery staple';
const limits: SignInLimits = {
  perAddressAndClient: { name: 'sign-in:address-client', limit: 2, windowSeconds: 60 },
  perAddress: { name: 'sign-in:address', limit: 4, windowSeconds: 60 },
  perIp: { name: 'sign-in:ip', limit: 10, windowSeconds: 60 },
};

/** The clients each address signed in from, as Redis keeps them. */
class FakeKnownClients implements Pick<KnownSignInClients, 'remember' | 'isKnown'> {
  readonly known = new Set<string>();
  remember = async (address: string, client: string) => void this.known.add(`${address}:${client}`);
  isKnown = async (address: string, client: string) => this.known.has(`${address}:${client}`);
}

/** Fixed-window counters per rule and subject, as the Redis rate limiter keeps them. */
class FakeRateLimiter {
  readonly counts = new Map<string, number>();

  asLimiter(): RateLimiter {
    return fake<RateLimiter>({
      hit: async (rule: RateLimitRule, subject: string) => {
        const key = `${rule.name}:${subject}`;
        const count = (this.counts.get(key) ?? 0) + 1;
        this.counts.set(key, count);
        return { allowed: count <= rule.limit, retryAfterSeconds: 42 };
      },
      reset: async (rule: RateLimitRule, subject: string) => {
        this.counts.delete(`${rule.name}:${subject}`);
      },
    });
  }
}

class FakeSigner {
  readonly issuedFor: string[] = [];

  asSigner(): OperatorTokenSigner {
    return fake<OperatorTokenSigner>({
      issue: async (operatorID: string) => {
        this.issuedFor.push(operatorID);
        return { token: `token-of-${operatorID}`, expiresInSeconds: 3600 };
      },
    });
  }
}

let anaHash: string;
beforeAll(async () => {
  anaHash = await hashPassword(password);
});

function useCase() {
  const accounts: Record<string, OperatorCredentials> = { 'ana@acme-support.com.br': { operatorID: anaID, passwordHash: anaHash } };
  const lookedUp: string[] = [];
  const operators = fake<OperatorCredentialsRepository>({
    findByEmail: async (email: string) => {
      lookedUp.push(email);
      return accounts[email];
    },
  });
  const limiter = new FakeRateLimiter();
  const signer = new FakeSigner();
  const knownClients = new FakeKnownClients();
  const signIn = new SignInOperatorUseCase(
    operators,
    signer.asSigner(),
    limiter.asLimiter(),
    fake<KnownSignInClients>(knownClients),
    new PasswordWork({ concurrency: 2, queue: 2 }),
    limits,
  );
  const attempt = (operatorEmail: string, attemptPassword: string, clientIp = '203.0.113.7', userAgent = 'Firefox') =>
    signIn.execute({ operatorEmail, password: attemptPassword, clientIp, userAgent });
  return { limiter, signer, lookedUp, attempt };
}

async function outcomeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => value,
    (error: { key?: string; retryAfterSeconds?: number }) => ({ key: error.key, retryAfterSeconds: error.retryAfterSeconds }),
  );
}

describe('SignInOperatorUseCase', () => {
  it('answers a token for the right password, the address trimmed and lower-cased', async () => {
    const { attempt, signer, lookedUp } = useCase();
    expect(await attempt('  Ana@Acme-Support.com.br ', password)).toEqual({ token: `token-of-${anaID}`, expiresInSeconds: 3600 });
    expect(lookedUp).toEqual(['ana@acme-support.com.br']);
    expect(signer.issuedFor).toEqual([anaID]);
  });

  it('answers 401 1003 alike for a wrong password and an unknown address, and issues nothing', async () => {
    const { attempt, signer } = useCase();
    expect(await outcomeOf(attempt('ana@acme-support.com.br', 'wrong'))).toMatchObject({ key: 'Unauthorized' });
    expect(await outcomeOf(attempt('nobody@acme-support.com.br', password))).toMatchObject({ key: 'Unauthorized' });
    expect(signer.issuedFor).toEqual([]);
  });

  it('refuses one client past its limit on an address with 429 1071 and its Retry-After, before reading the operator', async () => {
    const { attempt, lookedUp } = useCase();
    for (let i = 0; i < limits.perAddressAndClient.limit; i += 1) await outcomeOf(attempt('ana@acme-support.com.br', 'wrong'));
    lookedUp.length = 0;
    expect(await outcomeOf(attempt('ANA@acme-support.com.br', password))).toEqual({ key: 'TooManyRequests', retryAfterSeconds: 42 });
    expect(lookedUp).toEqual([]);
  });

  it('lets another client sign in: another User-Agent, or another address', async () => {
    const { attempt } = useCase();
    for (let i = 0; i < limits.perAddressAndClient.limit + 3; i += 1) await outcomeOf(attempt('ana@acme-support.com.br', 'wrong'));
    expect(await outcomeOf(attempt('ana@acme-support.com.br', password, '203.0.113.7', 'Safari'))).toMatchObject({ token: `token-of-${anaID}` });
    expect(await outcomeOf(attempt('ana@acme-support.com.br', password, '198.51.100.1', 'Firefox'))).toMatchObject({ token: `token-of-${anaID}` });
  });

  it('refuses new clients past the ceiling of the address, but not a client that signed in before', async () => {
    const { attempt } = useCase();
    await attempt('ana@acme-support.com.br', password, '192.0.2.1', 'Ana laptop');
    for (let i = 0; i < limits.perAddress.limit; i += 1) await outcomeOf(attempt('ana@acme-support.com.br', 'wrong', `198.51.100.${i}`));
    expect(await outcomeOf(attempt('ana@acme-support.com.br', password, '198.51.100.200'))).toMatchObject({ key: 'TooManyRequests' });
    expect(await outcomeOf(attempt('ana@acme-support.com.br', password, '192.0.2.1', 'Ana laptop'))).toMatchObject({ token: `token-of-${anaID}` });
  });

  it('refuses the attempt past the per-IP limit whatever the address', async () => {
    const { attempt } = useCase();
    for (let i = 0; i < limits.perIp.limit; i += 1) await outcomeOf(attempt(`user${i}@acme-support.com.br`, 'wrong'));
    expect(await outcomeOf(attempt('ana@acme-support.com.br', password))).toMatchObject({ key: 'TooManyRequests' });
  });

  it("counts the per-IP limit before the per-address one: a refused IP does not use up the address's attempts", async () => {
    const { attempt, limiter } = useCase();
    for (let i = 0; i < limits.perIp.limit; i += 1) await outcomeOf(attempt(`user${i}@acme-support.com.br`, 'wrong'));
    await outcomeOf(attempt('ana@acme-support.com.br', password));
    expect([...limiter.counts.keys()].filter((key) => key.includes('ana@'))).toEqual([]);
  });

  it("clears the client's count on the address on success, but not the IP's nor the address's ceiling", async () => {
    const { attempt, limiter } = useCase();
    await outcomeOf(attempt('ana@acme-support.com.br', 'wrong'));
    await attempt('ana@acme-support.com.br', password);
    expect([...limiter.counts.keys()].filter((key) => key.startsWith('sign-in:address-client:'))).toEqual([]);
    expect(limiter.counts.get('sign-in:address:ana@acme-support.com.br')).toBe(2);
    expect(limiter.counts.get('sign-in:ip:203.0.113.7')).toBe(2);
  });
});
