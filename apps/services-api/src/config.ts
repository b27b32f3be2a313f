import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig } from '@platform/config';
import { IsIn, IsString, Matches, MinLength, ValidateIf } from 'class-validator';

/** services-api's environment (README, Configuration). */
export class ServicesApiConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  SERVICES_API_PORT = 3000;

  /** How long a request waits for core-tenants over the transport before 504 5904. */
  @IsIntegerBetween(100, 60_000)
  CORE_TENANTS_RPC_TIMEOUT_MS = 5_000;

  /** The e-mail provider: any SMTP URL nodemailer takes. The default is the quick start's local sink. */
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL = 'smtp://127.0.0.1:1025';

  /** Connection, greeting and socket time limit of one SMTP delivery. */
  @IsIntegerBetween(100, 120_000)
  SMTP_TIMEOUT_MS = 10_000;

  @IsString({ message: 'must be an address, e.g. "Name" <no-reply@example.com>' })
  @Matches(/@/, { message: 'must be an address, e.g. "Name" <no-reply@example.com>' })
  EMAIL_FROM = '"Atendimento" <no-reply@atendimento.localhost>';

  /** Refuse addresses whose domain cannot receive mail (DNS: no MX and no A/AAAA, or a null MX). */
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  EMAIL_DELIVERABILITY_CHECK: 'true' | 'false' = 'true';

  /** DNS servers of that check, `host` or `host:port`, comma-separated; empty for the system's. */
  @Matches(/^$|^[^,\s]+(,[^,\s]+)*$/, { message: 'must be a comma-separated list of host or host:port' })
  EMAIL_DNS_SERVERS = '';

  @IsIntegerBetween(100, 30_000)
  EMAIL_DNS_TIMEOUT_MS = 2_000;

  /** Verification requests allowed per client IP per window (besides one per address per minute). */
  @IsIntegerBetween(1, 1_000_000)
  EMAIL_VERIFICATION_REQUESTS_PER_IP = 100;

  @IsIntegerBetween(1, 86_400)
  EMAIL_VERIFICATION_IP_WINDOW_SECONDS = 600;

  /**
   * Key of the verification codes' keyed hash and of the sealing of mail jobs;
   * the same on every replica. Required in production; a fixed development key otherwise.
   */
  @ValidateIf((config: ServicesApiConfig) => config.NODE_ENV === 'production' || config.SIGN_UP_SECRET !== undefined)
  @IsString({ message: 'must be a random string of at least 32 characters (required in production)' })
  @MinLength(32, { message: 'must be a random string of at least 32 characters (required in production)' })
  SIGN_UP_SECRET?: string;

  /** Attempts of a mail delivery job after the first one fails, and the delay before the first retry (doubling). */
  @IsIntegerBetween(0, 20)
  EMAIL_RETRY_LIMIT = 5;

  @IsIntegerBetween(1, 3_600)
  EMAIL_RETRY_DELAY_SECONDS = 30;

  /** How often idle job workers look for due jobs (retries, jobs enqueued by other replicas). */
  @IsIntegerBetween(1, 60)
  JOBS_POLLING_INTERVAL_SECONDS = 2;

  /** Time limit of one call to a processing-trace provider, answer included (operations 9 and 10). */
  @IsIntegerBetween(50, 30_000)
  TRACE_PROVIDER_TIMEOUT_MS = 1_500;

  /** How long a finished (terminal) retrieval of processing traces is served from Redis. */
  @IsIntegerBetween(1, 86_400)
  TRACE_RETRIEVAL_CACHE_TTL_SECONDS = 900;

  /** Lifetime of a tenant invitation. */
  @IsIntegerBetween(1, 24 * 90)
  OPERATOR_INVITATION_TTL_HOURS = 168;
}

/** Outside production only: the key used when SIGN_UP_SECRET is not set. */
export const DEVELOPMENT_SIGN_UP_SECRET = 'development-only sign-up secret, never used in production';
