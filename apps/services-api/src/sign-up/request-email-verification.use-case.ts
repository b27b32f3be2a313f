import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { RateLimiter, RateLimitRule } from '@platform/request-budgets';
import { Clock } from '@platform/scheduling';
import { domainOf, normaliseEmail } from './email-address';
import { EmailDomainCheck } from './email-domain-check';
import { MailLanguage } from './mail/mail-language';
import { SignUpMailQueue } from './mail/sign-up-mail.queue';
import { orUnavailable, tooManyRequests } from './sign-up-errors';
import { generateVerificationCode, SignUpKeys } from './sign-up-keys';
import { CODE_VALIDITY_MS, RESEND_INTERVAL_MS, VerificationStore } from './verification-store';

export const VERIFICATION_IP_LIMIT = Symbol('VERIFICATION_IP_LIMIT');

export interface RequestEmailVerificationCommand {
  operatorEmail: string;
  operatorFirstname: string;
  /** The client's address as per-address limits count it (`clientAddressKey`: IPv6 by /64). */
  clientIp: string;
  language: MailLanguage;
}

export interface EmailVerificationAnswer {
  expiresInSeconds: number;
  resendAfterSeconds: number;
}

/**
 * Operation 8 (docs/sign-up.md). Every address takes exactly the same path here,
 * whether or not it has an account: checks, a new code stored, a mail job
 * enqueued. Whether the mail goes out is decided by the job (an address
 * with an account gets none), so neither the answer nor its timing can
 * reveal that an account exists.
 */
@Injectable()
export class RequestEmailVerificationUseCase {
  private readonly logger = new Logger(RequestEmailVerificationUseCase.name);

  constructor(
    private readonly store: VerificationStore,
    private readonly queue: SignUpMailQueue,
    private readonly domains: EmailDomainCheck,
    private readonly keys: SignUpKeys,
    private readonly clock: Clock,
    private readonly rateLimiter: RateLimiter,
    @Inject(VERIFICATION_IP_LIMIT) private readonly ipLimit: RateLimitRule,
  ) {}

  async execute(request: RequestEmailVerificationCommand): Promise<EmailVerificationAnswer> {
    const address = normaliseEmail(request.operatorEmail);

    // Counted before the DNS work it protects.
    const ipVerdict = await orUnavailable('ip limit', () => this.rateLimiter.hit(this.ipLimit, request.clientIp));
    if (!ipVerdict.allowed) throw tooManyRequests(ipVerdict.retryAfterSeconds);

    const verdict = await this.domains.check(domainOf(address));
    if (verdict !== 'accepted') throw new AppException('OperatorEmailDisposable');

    const code = generateVerificationCode();
    const nonce = randomUUID();
    const now = this.clock.now().getTime();
    const outcome = await orUnavailable('store code', () => this.store.issue(address, { nonce, codeHash: this.keys.codeHash(address, code), now }));
    if (!outcome.issued) throw tooManyRequests(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)));

    try {
      await this.queue.enqueue({
        kind: 'verification',
        to: address,
        language: request.language,
        firstname: request.operatorFirstname,
        sealedCode: this.keys.seal(code),
        nonce,
        expiresAt: now + CODE_VALIDITY_MS,
      });
    } catch (error) {
      // No mail will go out: put the previous code and limit back, as if this request never happened.
      await this.store.restore(address, nonce, outcome.previous).catch((restoreError: unknown) =>
        this.logger.error({ err: restoreError }, 'could not restore the verification entry after the queue failed'),
      );
      return orUnavailable('enqueue mail', () => Promise.reject(error));
    }
    return { expiresInSeconds: CODE_VALIDITY_MS / 1000, resendAfterSeconds: RESEND_INTERVAL_MS / 1000 };
  }
}
