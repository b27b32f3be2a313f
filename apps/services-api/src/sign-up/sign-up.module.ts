import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { RateLimitRule } from '@platform/request-budgets';
import { DEVELOPMENT_SIGN_UP_SECRET, ServicesApiConfig } from '../config';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import { CompleteSignUpUseCase, SIGN_UP_IP_LIMIT } from './complete-sign-up.use-case';
import { EmailDomainCheck } from './email-domain-check';
import { INVITATION_TTL_MS, InviteOperatorUseCase } from './invite-operator.use-case';
import { MailProvider } from '../mail/mail.provider';
import { SmtpMailProvider } from '../mail/smtp-mail.provider';
import { MAIL_RETRY_POLICY, MailRetryPolicy, SignUpMailQueue } from './mail/sign-up-mail.queue';
import { SignUpMailSender } from './mail/sign-up-mail.sender';
import { OperatorTokenClient } from './operator-token.client';
import { OperatorsClient } from './operators.client';
import { RequestEmailVerificationUseCase, VERIFICATION_IP_LIMIT } from './request-email-verification.use-case';
import { SignUpController } from './sign-up.controller';
import { SignUpKeys } from './sign-up-keys';
import { VerificationStore } from './verification-store';

/** Operator sign-up: e-mail verification (operation 8), sign-up completion and tenant invitations. */
@Module({})
export class SignUpModule {
  static forRoot(config: ServicesApiConfig): DynamicModule {
    const ipLimit: RateLimitRule = {
      name: 'email-verification:ip',
      limit: config.EMAIL_VERIFICATION_REQUESTS_PER_IP,
      windowSeconds: config.EMAIL_VERIFICATION_IP_WINDOW_SECONDS,
    };
    const signUpIpLimit: RateLimitRule = { name: 'sign-up:ip', limit: config.SIGN_UP_ATTEMPTS_PER_IP, windowSeconds: config.SIGN_UP_IP_WINDOW_SECONDS };
    const retryPolicy: MailRetryPolicy = {
      retryLimit: config.EMAIL_RETRY_LIMIT,
      retryDelaySeconds: config.EMAIL_RETRY_DELAY_SECONDS,
      pollingIntervalSeconds: config.JOBS_POLLING_INTERVAL_MS / 1000,
    };
    const domainCheck = new EmailDomainCheck({
      enabled: config.EMAIL_DELIVERABILITY_CHECK === 'true',
      servers: config.EMAIL_DNS_SERVERS ? config.EMAIL_DNS_SERVERS.split(',') : [],
      timeoutMs: config.EMAIL_DNS_TIMEOUT_MS,
    });
    return {
      module: SignUpModule,
      controllers: [SignUpController],
      providers: [
        { provide: SignUpKeys, useValue: new SignUpKeys({ current: config.SIGN_UP_SECRET ?? DEVELOPMENT_SIGN_UP_SECRET, previous: config.SIGN_UP_SECRET_PREVIOUS }) },
        { provide: EmailDomainCheck, useValue: domainCheck },
        {
          provide: MailProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider('email', new SmtpMailProvider({ url: config.SMTP_URL, from: config.EMAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS }), metrics, { operations: ['send'] }),
          inject: [PlatformMetrics],
        },
        { provide: VERIFICATION_IP_LIMIT, useValue: ipLimit },
        { provide: SIGN_UP_IP_LIMIT, useValue: signUpIpLimit },
        { provide: MAIL_RETRY_POLICY, useValue: retryPolicy },
        { provide: INVITATION_TTL_MS, useValue: config.OPERATOR_INVITATION_TTL_HOURS * 3_600_000 },
        VerificationStore,
        OperatorsClient,
        OperatorTokenClient,
        SignUpMailSender,
        SignUpMailQueue,
        RequestEmailVerificationUseCase,
        CompleteSignUpUseCase,
        InviteOperatorUseCase,
        AcceptInvitationUseCase,
      ],
    };
  }
}
