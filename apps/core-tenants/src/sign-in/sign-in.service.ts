import { Inject, Injectable } from '@nestjs/common';
import { verifyPassword } from '@platform/auth';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/redis';
import { DataSource } from 'typeorm';
import { IssuedOperatorToken, OperatorTokenSigner } from '../signing/operator-token.signer';

export const SIGN_IN_LIMITS = Symbol('SIGN_IN_LIMITS');

export interface SignInLimits {
  perAddress: RateLimitRule;
  perIp: RateLimitRule;
}

/**
 * Operator sign-in. Every attempt counts against the address and the client
 * IP (Redis, shared by replicas); a wrong address and a wrong password give
 * the same 401 after the same password-hash work.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: OperatorTokenSigner,
    private readonly rateLimiter: RateLimiter,
    @Inject(SIGN_IN_LIMITS) private readonly limits: SignInLimits,
  ) {}

  async signIn(email: string, password: string, clientIp: string): Promise<IssuedOperatorToken> {
    const address = email.trim().toLowerCase();
    for (const [rule, subject] of [
      [this.limits.perIp, clientIp],
      [this.limits.perAddress, address],
    ] as const) {
      const verdict = await this.rateLimiter.hit(rule, subject);
      if (!verdict.allowed) throw new AppException('TooManyRequests', { retryAfterSeconds: verdict.retryAfterSeconds });
    }

    const rows: { id: string; password_hash: string }[] = await this.dataSource.query(
      'SELECT id, password_hash FROM operators WHERE email = $1',
      [address],
    );
    const operator = rows[0];
    if (!(await verifyPassword(operator?.password_hash, password)) || !operator) throw new AppException('Unauthorized');

    await this.rateLimiter.reset(this.limits.perAddress, address);
    return this.signer.issue(operator.id);
  }
}
