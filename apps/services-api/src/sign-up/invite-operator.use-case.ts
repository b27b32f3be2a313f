import { Inject, Injectable } from '@nestjs/common';
import { generateSecretToken, hashSecretToken, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { domainOf, normaliseEmail } from './email-address';
import { EmailDomainCheck } from './email-domain-check';
import { MailLanguage } from './mail/mail-language';
import { SignUpMailQueue } from './mail/sign-up-mail.queue';
import { OperatorsRepository } from './operators.repository';
import { orUnavailable } from './sign-up-errors';
import { SignUpKeys } from './sign-up-keys';

export const INVITATION_TTL_MS = Symbol('INVITATION_TTL_MS');

export interface CreatedInvitation {
  invitationID: string;
  tenantID: string;
  operatorEmail: string;
  expiresAt: string;
}

/**
 * A tenant owner invites an address: the invitation row and its mail job are
 * written in one transaction (pg-boss enqueues through it), so either both
 * exist or neither does.
 */
@Injectable()
export class InviteOperator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TenantAccessService,
    private readonly operators: OperatorsRepository,
    private readonly domains: EmailDomainCheck,
    private readonly queue: SignUpMailQueue,
    private readonly keys: SignUpKeys,
    private readonly clock: Clock,
    @Inject(INVITATION_TTL_MS) private readonly ttlMs: number,
  ) {}

  async execute(principal: OperatorPrincipal, tenantID: string, operatorEmail: string, language: MailLanguage): Promise<CreatedInvitation> {
    await this.access.require(principal, tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const email = normaliseEmail(operatorEmail);
    if ((await this.domains.check(domainOf(email))) !== 'accepted') throw new AppException('OperatorEmailDisposable');

    const normalisedTenantID = tenantID.toLowerCase();
    const token = generateSecretToken();
    const expiresAt = new Date(this.clock.now() + this.ttlMs);
    const { tenantName, inviterName } = await this.operators.invitationContext(normalisedTenantID, principal.operatorID);
    const invitationID = await orUnavailable('enqueue invitation', () =>
      this.dataSource.transaction(async (manager) => {
        const id = await this.operators.createInvitation(manager, {
          tenantID: normalisedTenantID,
          email,
          tokenHash: hashSecretToken(token),
          invitedBy: principal.operatorID,
          expiresAt,
        });
        const db = { executeSql: async (text: string, values: unknown[]) => ({ rows: (await manager.query(text, values)) as unknown[] }) };
        await this.queue.enqueue(
          { kind: 'invitation', to: email, language, invitationID: id, tenantName, inviterName, sealedToken: this.keys.seal(token), expiresAt: expiresAt.getTime() },
          db,
        );
        return id;
      }),
    );
    this.queue.wakeUp();
    return { invitationID, tenantID: normalisedTenantID, operatorEmail: email, expiresAt: expiresAt.toISOString() };
  }
}
