import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { generateSecretToken, hashSecretToken, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { Clock } from '@platform/scheduling';
import { domainOf, normaliseEmail } from './email-address';
import { EmailDomainCheck } from './email-domain-check';
import { MailLanguage } from './mail/mail-language';
import { SignUpMailQueue } from './mail/sign-up-mail.queue';
import { OperatorsClient } from './operators.client';
import { fromCoreTenants, orUnavailable } from './sign-up-errors';
import { SignUpKeys } from './sign-up-keys';

export const INVITATION_TTL_MS = Symbol('INVITATION_TTL_MS');

export interface InviteOperatorCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  operatorEmail: string;
  language: MailLanguage;
  /** Claimed right after the access check (docs/idempotency.md, check order). */
  idempotency: IdempotencyKeyClaim;
}

export interface CreatedInvitation {
  invitationID: string;
  tenantID: string;
  operatorEmail: string;
  expiresAt: string;
}

/**
 * A tenant owner invites an address. core-tenants records the invitation,
 * this app queues its mail; nothing is ever half-written, at each point of
 * failure:
 * 1. the access check, the domain check: nothing written;
 * 2. recording the invitation fails or is not answered in time (503 5016):
 *    core-tenants wrote nothing, or wrote a row nobody can ever accept, since
 *    it holds only the token's hash and the token itself lived only in this
 *    request's memory and is dropped with the answer;
 * 3. queueing the mail fails (503 5016): the invitation is withdrawn; if the
 *    withdrawal is lost too, the row is as unusable as in 2;
 * 4. the mail job is queued: it is durable in PostgreSQL (pg-boss) and the
 *    mail is delivered later, with retries, by whichever replica is free.
 * The invitation id is chosen here, so core-tenants records one invitation
 * however often it is asked.
 */
@Injectable()
export class InviteOperatorUseCase {
  private readonly logger = new Logger(InviteOperatorUseCase.name);

  constructor(
    private readonly access: TenantAccessService,
    private readonly operators: OperatorsClient,
    private readonly domains: EmailDomainCheck,
    private readonly queue: SignUpMailQueue,
    private readonly keys: SignUpKeys,
    private readonly clock: Clock,
    @Inject(INVITATION_TTL_MS) private readonly ttlMs: number,
  ) {}

  async execute(command: InviteOperatorCommand): Promise<CreatedInvitation> {
    const { principal, language } = command;
    const scope = await this.access.require(principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    await command.idempotency.claimKey();
    const email = normaliseEmail(command.operatorEmail);
    if ((await this.domains.check(domainOf(email))) !== 'accepted') throw new AppException('OperatorEmailDisposable');

    const invitationID = randomUUID();
    const token = generateSecretToken();
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlMs);
    const { tenantName, inviterName } = await fromCoreTenants(
      () =>
        this.operators.createInvitation({
          invitationID,
          tenantID: scope.tenantID,
          email,
          tokenHash: hashSecretToken(token),
          invitedBy: principal.operatorID,
          expiresAt: expiresAt.toISOString(),
        }),
      'EmailVerificationUnavailable',
    );
    try {
      await this.queue.enqueue({
        kind: 'invitation',
        to: email,
        language,
        invitationID,
        tenantName,
        inviterName,
        sealedToken: this.keys.seal(token),
        expiresAt: expiresAt.getTime(),
      });
    } catch (error) {
      await this.withdraw(invitationID);
      return orUnavailable('enqueue invitation', () => Promise.reject(error));
    }
    return { invitationID, tenantID: scope.tenantID, operatorEmail: email, expiresAt: expiresAt.toISOString() };
  }

  /** Best effort: an invitation whose withdrawal is lost can never be accepted anyway (its token is gone). */
  private async withdraw(invitationID: string): Promise<void> {
    await this.operators.withdrawInvitation(invitationID).catch((error: unknown) =>
      this.logger.warn({ err: error, invitationID }, 'invitation not withdrawn after its mail could not be queued; its token is lost, so it cannot be accepted'),
    );
  }
}
