import { Inject, Injectable } from '@nestjs/common';
import { hashPassword, hashSecretToken } from '@platform/auth';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/redis';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { normaliseEmail } from './email-address';
import { OperatorTokenClient } from './operator-token.client';
import { invalidInvitation, usableInvitation } from './invitations';
import { OperatorsRepository } from './operators.repository';
import { orUnavailable, tooManyRequests } from './sign-up-errors';
import { SignUpKeys } from './sign-up-keys';
import { VerificationStore } from './verification-store';

export interface SignUpRequest {
  operatorEmail: string;
  operatorFirstname: string;
  operatorLastname?: string;
  password: string;
  emailVerificationCode?: string;
  invitationToken?: string;
}

export const SIGN_UP_IP_LIMIT = Symbol('SIGN_UP_IP_LIMIT');

export interface SignedUpOperator {
  operatorID: string;
  operatorEmail: string;
  token: string;
}

const wrongCode = (received: string) =>
  AppException.validation([{ field: 'emailVerificationCode', received, allowed: 'the six-digit code last mailed to operatorEmail, within 10 minutes' }]);


/**
 * POST /v1/operators: creates the operator once the address is proven, by
 * the mailed code or by an invitation, and answers a token from core-tenants.
 * An address that already has an account gets exactly the answer of a wrong
 * code (or of an invalid invitation), so this step reveals no account either.
 */
@Injectable()
export class CompleteSignUp {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: VerificationStore,
    private readonly operators: OperatorsRepository,
    private readonly keys: SignUpKeys,
    private readonly clock: Clock,
    private readonly tokens: OperatorTokenClient,
    private readonly rateLimiter: RateLimiter,
    @Inject(SIGN_UP_IP_LIMIT) private readonly ipLimit: RateLimitRule,
  ) {}

  async execute(request: SignUpRequest, clientIp: string): Promise<SignedUpOperator> {
    // Five tries burn one address's code; this bounds guessing across many addresses from one client.
    const verdict = await orUnavailable('ip limit', () => this.rateLimiter.hit(this.ipLimit, clientIp));
    if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
    const email = normaliseEmail(request.operatorEmail);
    const operatorID =
      request.invitationToken !== undefined ? await this.withInvitation(request, email, request.invitationToken) : await this.withCode(request, email, request.emailVerificationCode ?? '');
    // Committed first: if core-tenants cannot answer now, the account exists and sign-in works later.
    return { operatorID, operatorEmail: email, token: await this.tokens.issue(operatorID) };
  }

  private async withCode(request: SignUpRequest, email: string, code: string): Promise<string> {
    const outcome = await orUnavailable('verify code', () => this.store.verify(email, this.keys.codeHash(email, code), this.clock.now()));
    if (outcome !== 'ok') throw wrongCode(code);
    const operatorID = await this.operators.create(await this.newOperator(request, email));
    if (!operatorID) throw wrongCode(code);
    return operatorID;
  }

  private async withInvitation(request: SignUpRequest, email: string, token: string): Promise<string> {
    const tokenHash = hashSecretToken(token);
    // A cheap look first, so a bogus token costs no password hashing.
    if (!usableInvitation(await this.operators.invitationByTokenHash(tokenHash), email, this.clock.now())) throw invalidInvitation(token);
    const operator = await this.newOperator(request, email);
    return this.dataSource.transaction(async (manager) => {
      const invitation = await this.operators.invitationByTokenHash(tokenHash, manager, true);
      if (!usableInvitation(invitation, email, this.clock.now())) throw invalidInvitation(token);
      const operatorID = await this.operators.create(operator, manager);
      if (!operatorID) throw invalidInvitation(token);
      await this.operators.acceptInvitation(manager, invitation, operatorID, new Date(this.clock.now()));
      return operatorID;
    });
  }

  private async newOperator(request: SignUpRequest, email: string) {
    return {
      email,
      firstname: request.operatorFirstname.trim(),
      lastname: request.operatorLastname?.trim() || null,
      passwordHash: await hashPassword(request.password),
    };
  }
}
