import { Inject, Injectable } from '@nestjs/common';
import { verifyPassword } from '@platform/auth';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/redis';
import { IssuedOperatorToken, OperatorTokenSigner } from '../signing/operator-token.signer';
import { OperatorCredentialsRepository } from './operator-credentials.repository';

export const SIGN_IN_LIMITS = Symbol('SIGN_IN_LIMITS');

export interface SignInLimits {
  perAddress: RateLimitRule;
  perIp: RateLimitRule;
}

export interface SignInOperatorCommand {
  operatorEmail: string;
  password: string;
  clientIp: string;
}

/**
 * Operator sign-in. Every attempt counts against the address and the client
 * IP (Redis, shared by replicas); a wrong address and a wrong password give
 * the same 401 after the same password-hash work.
 */
@Injectable()
export class SignInOperatorUseCase {
  constructor(
    private readonly operators: OperatorCredentialsRepository,
    private readonly signer: OperatorTokenSigner,
    private readonly rateLimiter: RateLimiter,
    @Inject(SIGN_IN_LIMITS) private readonly limits: SignInLimits,
  ) {}

  async execute(command: SignInOperatorCommand): Promise<IssuedOperatorToken> {
    const address = command.operatorEmail.trim().toLowerCase();
    for (const [rule, subject] of [
      [this.limits.perIp, command.clientIp],
      [this.limits.perAddress, address],
    ] as const) {
      const verdict = await this.rateLimiter.hit(rule, subject);
      if (!verdict.allowed) throw new AppException('TooManyRequests', { retryAfterSeconds: verdict.retryAfterSeconds });
    }

    const operator = await this.operators.findByEmail(address);
    if (!(await verifyPassword(operator?.passwordHash, command.password)) || !operator) throw new AppException('Unauthorized');

    await this.rateLimiter.reset(this.limits.perAddress, address);
    return this.signer.issue(operator.operatorID);
  }
}
