import { Inject, Injectable } from '@nestjs/common';
import { PasswordWork, verifyPassword } from '@platform/auth';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { IssuedOperatorToken, OperatorTokenSigner } from '../signing/operator-token.signer';
import { KnownSignInClients } from './known-sign-in-clients';
import { OperatorCredentialsRepository } from './operator-credentials.repository';
import { signInClientOf } from './sign-in-client';

export const SIGN_IN_LIMITS = Symbol('SIGN_IN_LIMITS');

export interface SignInLimits {
  /** Attempts on one e-mail address from one client (address and User-Agent); cleared by a success. */
  perAddressAndClient: RateLimitRule;
  /** Ceiling of attempts on one e-mail address from every client; known clients sign in past it. */
  perAddress: RateLimitRule;
  /** Attempts from one client address (IPv6 by /64), whatever the e-mail address. */
  perIp: RateLimitRule;
}

export interface SignInOperatorCommand {
  operatorEmail: string;
  password: string;
  /** The client's address as per-address limits count it (`clientAddressKey`: IPv6 by /64). */
  clientIp: string;
  userAgent: string | undefined;
}

/**
 * Operator sign-in. Every attempt counts (Redis, shared by replicas) against
 * the client address, against the e-mail address from this client, and
 * against a much higher ceiling for the e-mail address; a client that signed
 * in before passes that ceiling, so failures elsewhere never lock an account
 * out for everyone. A wrong address and a wrong password give the same 401
 * after the same password-hash work, which `PasswordWork` bounds per process.
 */
@Injectable()
export class SignInOperatorUseCase {
  constructor(
    private readonly operators: OperatorCredentialsRepository,
    private readonly signer: OperatorTokenSigner,
    private readonly rateLimiter: RateLimiter,
    private readonly knownClients: KnownSignInClients,
    private readonly passwordWork: PasswordWork,
    @Inject(SIGN_IN_LIMITS) private readonly limits: SignInLimits,
  ) {}

  async execute(command: SignInOperatorCommand): Promise<IssuedOperatorToken> {
    const address = command.operatorEmail.trim().toLowerCase();
    const client = signInClientOf(command.clientIp, command.userAgent);
    await this.countAttempt(address, client, command.clientIp);

    const operator = await this.operators.findByEmail(address);
    const matches = await this.passwordWork.run(() => verifyPassword(operator?.passwordHash, command.password));
    if (!matches || !operator) throw new AppException('Unauthorized');

    await this.rateLimiter.reset(this.limits.perAddressAndClient, `${address}:${client}`);
    await this.knownClients.remember(address, client);
    return this.signer.issue(operator.operatorID);
  }

  /**
   * In this order, each refusal before the next counter: a refused client
   * address does not use up the e-mail address's attempts, and a client over
   * its own limit does not use up the ceiling that protects the others.
   */
  private async countAttempt(address: string, client: string, clientIp: string): Promise<void> {
    for (const [rule, subject] of [
      [this.limits.perIp, clientIp],
      [this.limits.perAddressAndClient, `${address}:${client}`],
    ] as const) {
      const verdict = await this.rateLimiter.hit(rule, subject);
      if (!verdict.allowed) throw new AppException('TooManyRequests', { retryAfterSeconds: verdict.retryAfterSeconds });
    }
    const ceiling = await this.rateLimiter.hit(this.limits.perAddress, address);
    if (!ceiling.allowed && !(await this.knownClients.isKnown(address, client))) {
      throw new AppException('TooManyRequests', { retryAfterSeconds: ceiling.retryAfterSeconds });
    }
  }
}
