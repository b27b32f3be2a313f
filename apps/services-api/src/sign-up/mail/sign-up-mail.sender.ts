import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { OperatorsClient } from '../operators.client';
import { SignUpKeys } from '../sign-up-keys';
import { CODE_VALIDITY_MS, VerificationStore } from '../verification-store';
import { MailProvider } from '../../mail/mail.provider';
import { InvitationMailJob, SignUpMailJob, VerificationMailJob } from './sign-up-mail.job';
import { renderInvitationMail, renderVerificationMail } from './templates';

/** What a mail job does when it runs: decide whether the mail is still due, then send it. */
@Injectable()
export class SignUpMailSender {
  private readonly logger = new Logger(SignUpMailSender.name);

  constructor(
    private readonly mailer: MailProvider,
    private readonly keys: SignUpKeys,
    private readonly store: VerificationStore,
    private readonly operators: OperatorsClient,
    private readonly clock: Clock,
  ) {}

  async deliver(job: SignUpMailJob): Promise<void> {
    if (job.kind === 'verification') await this.deliverCode(job);
    else await this.deliverInvitation(job);
  }

  private async deliverCode(job: VerificationMailJob): Promise<void> {
    if (job.expiresAt <= this.clock.now().getTime()) return this.skip(job, 'code expired before it could be sent');
    if (!(await this.store.isCurrent(job.to, job.nonce))) return this.skip(job, 'superseded by a later request');
    // Decided here, not in the request: the request did the same work for every address,
    // and an address that has an account never receives a code. core-tenants, which owns the
    // operators, answers; if it cannot, the job fails and is retried like a failed delivery.
    if (await this.operators.hasAccount(job.to)) {
      // While deliveries fail, a new address may ask again at once (its failed send lifts
      // its limit). An existing address gets the same, or the limit would tell them apart.
      if (await this.store.isDeliveryFailing()) await this.liftLimit(job);
      return this.skip(job, 'address already has an account');
    }

    const mail = renderVerificationMail(job.language, {
      firstname: job.firstname,
      code: this.keys.unseal(job.sealedCode),
      validMinutes: CODE_VALIDITY_MS / 60_000,
    });
    try {
      await this.mailer.send(job.to, mail);
    } catch (error) {
      // The person never got this code: let them ask again at once (the job retries meanwhile).
      await this.store.markDeliveryFailing().catch(() => undefined);
      await this.liftLimit(job);
      throw error;
    }
    await this.store.clearDeliveryFailing().catch(() => undefined);
  }

  private async liftLimit(job: VerificationMailJob): Promise<void> {
    await this.store.liftResendLimit(job.to, job.nonce).catch((error: unknown) => this.logger.warn({ err: error }, 'could not lift the resend limit'));
  }

  private async deliverInvitation(job: InvitationMailJob): Promise<void> {
    if (job.expiresAt <= this.clock.now().getTime()) return this.skip(job, 'invitation expired before it could be sent');
    const mail = renderInvitationMail(job.language, {
      tenantName: job.tenantName,
      inviterName: job.inviterName,
      token: this.keys.unseal(job.sealedToken),
      validDays: Math.max(1, Math.round((job.expiresAt - this.clock.now().getTime()) / 86_400_000)),
    });
    await this.mailer.send(job.to, mail);
  }

  private skip(job: SignUpMailJob, reason: string): void {
    this.logger.log({ kind: job.kind, reason }, 'mail not sent');
  }
}
