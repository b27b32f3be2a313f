import { Inject, Injectable } from '@nestjs/common';
import { hashPassword, hashSecretToken } from '@platform/auth';
import { RegisterOperatorPayload } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { Clock } from '@platform/scheduling';
import { normaliseEmail } from './email-address';
import { OperatorTokenClient } from './operator-token.client';
import { invalidInvitation } from './invitations';
import { OperatorsClient } from './operators.client';
import { fromCoreTenants, orUnavailable, tooManyRequests } from './sign-up-errors';
import { SignUpKeys } from './sign-up-keys';
import { VerificationStore } from './verification-store';

export interface CompleteSignUpCommand {
  operatorEmail: string;
  operatorFirstname: string;
  operatorLastname?: string;
  password: string;
  emailVerificationCode?: string;
  invitationToken?: string;
  /** The client's address as per-address limits count it (`clientAddressKey`: IPv6 by /64). */
  clientIp: string;
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
 * POST /v1/operators: once the address is proven, by the mailed code or by an
 * invitation, core-tenants creates the operator (and, with an invitation, the
 * membership, in the same transaction) and issues its token. An address that
 * already has an account gets exactly the answer of a wrong code (or of an
 * invalid invitation), so this step reveals no account either.
 */
@Injectable()
export class CompleteSignUpUseCase {
  constructor(
    private readonly store: VerificationStore,
    private readonly operators: OperatorsClient,
    private readonly keys: SignUpKeys,
    private readonly clock: Clock,
    private readonly tokens: OperatorTokenClient,
    private readonly rateLimiter: RateLimiter,
    @Inject(SIGN_UP_IP_LIMIT) private readonly ipLimit: RateLimitRule,
  ) {}

  async execute(command: CompleteSignUpCommand): Promise<SignedUpOperator> {
    // Five tries burn one address's code; this bounds guessing across many addresses from one client.
    const verdict = await orUnavailable('ip limit', () => this.rateLimiter.hit(this.ipLimit, command.clientIp));
    if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
    const email = normaliseEmail(command.operatorEmail);
    const operatorID =
      command.invitationToken !== undefined
        ? await this.withInvitation(command, email, command.invitationToken)
        : await this.withCode(command, email, command.emailVerificationCode ?? '');
    // Committed first: if core-tenants cannot answer now, the account exists and sign-in works later.
    return { operatorID, operatorEmail: email, token: await this.tokens.issue(operatorID) };
  }

  private async withCode(command: CompleteSignUpCommand, email: string, code: string): Promise<string> {
    const outcome = await orUnavailable('verify code', () => this.store.verify(email, this.keys.codeHashes(email, code), this.clock.now().getTime()));
    if (outcome !== 'ok') throw wrongCode(code);
    const operator = await this.newOperator(command, email);
    const reply = await fromCoreTenants(() => this.operators.register(operator));
    if (reply.outcome !== 'registered') throw wrongCode(code);
    return reply.operatorID;
  }

  private async withInvitation(command: CompleteSignUpCommand, email: string, token: string): Promise<string> {
    const invitationTokenHash = hashSecretToken(token);
    // A cheap look first, so a bogus token costs no password hashing; core-tenants checks again under a lock.
    if (!(await fromCoreTenants(() => this.operators.invitationUsable(invitationTokenHash, email)))) throw invalidInvitation(token);
    const operator = await this.newOperator(command, email);
    const reply = await fromCoreTenants(() => this.operators.register({ ...operator, invitationTokenHash }));
    if (reply.outcome !== 'registered') throw invalidInvitation(token);
    return reply.operatorID;
  }

  private async newOperator(command: CompleteSignUpCommand, email: string): Promise<RegisterOperatorPayload> {
    return {
      email,
      firstname: command.operatorFirstname.trim(),
      lastname: command.operatorLastname?.trim() || null,
      passwordHash: await hashPassword(command.password),
    };
  }
}
