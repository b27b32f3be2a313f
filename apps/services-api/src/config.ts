import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig, Secret } from '@platform/config';
import { IsOutboundAllowList } from '@platform/http-outbound';
import { IsIn, IsString, Matches, MinLength, ValidateIf } from 'class-validator';

const inProduction = (config: ServicesApiConfig) => config.NODE_ENV === 'production';

/** services-api's environment (docs/configuration.md). */
export class ServicesApiConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  SERVICES_API_PORT = 3000;

  /** Port of `GET /metrics` (Prometheus), apart from the API's so the Ingress never exposes it; 0 picks a free port. */
  @IsIntegerBetween(0, 65535)
  METRICS_PORT = 9464;

  /** How long a request waits for core-tenants over the transport before 504 5904. */
  @IsIntegerBetween(100, 60_000)
  CORE_TENANTS_RPC_TIMEOUT_MS = 5_000;

  /** The busiest API: an integration syncing conversations runs well below 50 requests a second (docs/security.md). */
  override RATE_LIMIT_PRINCIPAL = '3000/60s';

  /** Four such integrations, or about a hundred operators working at once, on one tenant. */
  override RATE_LIMIT_TENANT = '12000/60s';

  /** Days an audit event is kept before the hourly sweep deletes it (docs/audit-log.md). */
  @IsIntegerBetween(1, 36_500)
  AUDIT_RETENTION_DAYS = 400;

  /**
   * Seals webhook endpoints' signing secrets at rest (docs/webhooks.md). At
   * least 32 characters; changing it needs WEBHOOK_SECRETS_KEY_PREVIOUS set to
   * the old value until every endpoint's secret was rotated.
   */
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be a secret of at least 32 characters' })
  @MinLength(32, { message: 'must be a secret of at least 32 characters' })
  WEBHOOK_SECRETS_KEY = 'development-only-webhook-secrets-key-not-for-production';

  /** During a change of WEBHOOK_SECRETS_KEY, the previous key: secrets it sealed still open. */
  @ValidateIf((config: ServicesApiConfig) => config.WEBHOOK_SECRETS_KEY_PREVIOUS !== undefined)
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be the previous WEBHOOK_SECRETS_KEY' })
  @MinLength(32, { message: 'must be the previous WEBHOOK_SECRETS_KEY' })
  WEBHOOK_SECRETS_KEY_PREVIOUS?: string;

  /**
   * Hours an endpoint's previous signing secret still signs deliveries after
   * a rotation (docs/webhooks.md), so its receiver can switch over without
   * refusing any; 0 retires it at once.
   */
  @IsIntegerBetween(0, 720)
  WEBHOOK_SECRET_ROTATION_GRACE_HOURS = 24;

  /** Characters a conversation message's content may hold (then 422 1948; docs/conversations.md). */
  @IsIntegerBetween(1, 65_536)
  MESSAGE_CONTENT_MAX_CHARACTERS = 4_096;

  /** Days a closed session and its messages are kept before the hourly sweep deletes them; 0 keeps them for good (docs/conversations.md#growth). */
  @IsIntegerBetween(0, 36_500)
  MESSAGE_RETENTION_DAYS = 0;

  /** Milliseconds between the notification fan-out loop's looks for work it was not nudged about (docs/conversations.md). */
  @IsIntegerBetween(50, 60_000)
  NOTIFICATION_FANOUT_POLL_MS = 1_000;

  /** Seconds after an operator's sockets were last seen (closed, or their gateway gone) before they are offline (docs/presence.md); above the gateway's PRESENCE_LEASE_REFRESH_SECONDS. */
  @IsIntegerBetween(1, 3_600)
  PRESENCE_OFFLINE_GRACE_SECONDS = 60;

  /** Seconds without client activity after which an operator who chose online is away (docs/presence.md). */
  @IsIntegerBetween(1, 86_400)
  PRESENCE_AWAY_AFTER_SECONDS = 300;

  /** Milliseconds between the presence reconciler's looks for statuses to move (docs/presence.md). */
  @IsIntegerBetween(50, 60_000)
  PRESENCE_RECONCILE_POLL_MS = 1_000;

  /** Seconds a notification mail gathers events for: an operator gets at most one such mail per interval (docs/notifications.md). */
  @IsIntegerBetween(1, 86_400)
  NOTIFICATION_MAIL_INTERVAL_SECONDS = 300;

  /** Milliseconds between the notification mail worker's looks for due batches (docs/notifications.md). */
  @IsIntegerBetween(50, 60_000)
  NOTIFICATION_MAIL_POLL_MS = 5_000;

  /** Webhook endpoints one tenant may have at once (then 409 1961). */
  @IsIntegerBetween(1, 1_000)
  WEBHOOK_ENDPOINTS_PER_TENANT = 10;

  /** The e-mail provider: any SMTP URL nodemailer takes. The default is the quick start's local sink. */
  @Secret({ minLength: 0 })
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
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be a random string of at least 32 characters (required in production)' })
  @MinLength(32, { message: 'must be a random string of at least 32 characters (required in production)' })
  SIGN_UP_SECRET?: string;

  /** During a change of SIGN_UP_SECRET, the previous secret: codes it hashed still verify and mail jobs it sealed still open. */
  @ValidateIf((config: ServicesApiConfig) => config.SIGN_UP_SECRET_PREVIOUS !== undefined)
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be the previous SIGN_UP_SECRET' })
  @MinLength(32, { message: 'must be the previous SIGN_UP_SECRET' })
  SIGN_UP_SECRET_PREVIOUS?: string;

  /** Attempts of a mail delivery job after the first one fails, and the delay before the first retry (doubling). */
  @IsIntegerBetween(0, 20)
  EMAIL_RETRY_LIMIT = 5;

  @IsIntegerBetween(1, 3_600)
  EMAIL_RETRY_DELAY_SECONDS = 30;

  /** Time limit of one call to a processing-trace provider, answer included (operations 9 and 10). */
  @IsIntegerBetween(50, 30_000)
  TRACE_PROVIDER_TIMEOUT_MS = 1_500;

  /**
   * Destinations that are not public but may still be called at URLs that come
   * from data (plugins' trace endpoints): hosts, addresses or CIDRs, each
   * optionally with `:port`, comma-separated. Empty (the default) reaches public
   * addresses only (docs/security.md, Outbound calls).
   */
  @IsOutboundAllowList()
  OUTBOUND_ALLOW = '';

  /** DNS servers (`host` or `host:port`, comma-separated) that resolve those URLs' hosts; empty for the system's resolver. */
  @Matches(/^$|^[^,\s]+(,[^,\s]+)*$/, { message: 'must be a comma-separated list of host or host:port' })
  OUTBOUND_DNS_SERVERS = '';

  /** How long a finished (terminal) retrieval of processing traces is served from Redis. */
  @IsIntegerBetween(1, 86_400)
  TRACE_RETRIEVAL_CACHE_TTL_SECONDS = 900;

  /** Sign-up completions (POST /v1/operators) allowed per client IP per window: bounds code guessing across addresses. */
  @IsIntegerBetween(1, 1_000_000)
  SIGN_UP_ATTEMPTS_PER_IP = 30;

  @IsIntegerBetween(1, 86_400)
  SIGN_UP_IP_WINDOW_SECONDS = 600;

  /** Lifetime of a tenant invitation. */
  @IsIntegerBetween(1, 24 * 90)
  OPERATOR_INVITATION_TTL_HOURS = 168;
  /** Message-template provider (WhatsApp Business Cloud API): base URL, without the version. */
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'must be an http(s) URL' })
  WHATSAPP_API_BASE_URL = 'https://graph.facebook.com';

  /** Graph API version segment of every provider path. */
  @Matches(/^v\d+\.\d+$/, { message: 'must look like v21.0' })
  WHATSAPP_API_VERSION = 'v21.0';

  /** System-user access token the platform acts with on its clients' WhatsApp Business Accounts. Required in production. */
  @ValidateIf((config: ServicesApiConfig) => inProduction(config) || config.WHATSAPP_ACCESS_TOKEN !== undefined)
  @Secret()
  @IsString({ message: 'must be a non-empty string (required in production)' })
  WHATSAPP_ACCESS_TOKEN?: string;

  /** App secret the provider signs status webhooks with (X-Hub-Signature-256). Required in production; without it every delivery is refused. */
  @ValidateIf((config: ServicesApiConfig) => inProduction(config) || config.WHATSAPP_APP_SECRET !== undefined)
  @Secret()
  @IsString({ message: 'must be at least 16 characters (required in production)' })
  @MinLength(16, { message: 'must be at least 16 characters (required in production)' })
  WHATSAPP_APP_SECRET?: string;

  /**
   * Token the provider echoes when subscribing the webhook (GET with
   * hub.verify_token); unset refuses every subscription attempt.
   */
  @ValidateIf((config: ServicesApiConfig) => config.WHATSAPP_WEBHOOK_VERIFY_TOKEN !== undefined)
  @Secret()
  @IsString({ message: 'must be at least 16 characters' })
  @MinLength(16, { message: 'must be at least 16 characters' })
  WHATSAPP_WEBHOOK_VERIFY_TOKEN?: string;

  /** Time limit of one call to the provider; past it the submission is retried in the background. */
  @IsIntegerBetween(100, 60_000)
  WHATSAPP_TIMEOUT_MS = 10_000;

  /** Delay before the background submission of a model the provider did not take at once, and the first retry delay. */
  @IsIntegerBetween(1, 3_600)
  TEMPLATE_SUBMISSION_RETRY_SECONDS = 30;

  /** Ceiling of the doubling delay between background submission attempts. */
  @IsIntegerBetween(1, 86_400)
  TEMPLATE_SUBMISSION_RETRY_MAX_SECONDS = 900;

  /** How often idle pg-boss workers look for due jobs. */
  @IsIntegerBetween(500, 60_000)
  JOBS_POLLING_INTERVAL_MS = 2_000;

  /** Time limit of one webhook delivery attempt, answer included; past it the attempt failed (docs/webhooks.md). */
  @IsIntegerBetween(100, 60_000)
  WEBHOOK_DELIVERY_TIMEOUT_MS = 10_000;

  /**
   * Seconds before each retry of a failed webhook delivery, comma-separated:
   * one retry per entry, each delay drawn within ±20 % (jitter); after the
   * last the delivery is `failed`. About a day by default.
   */
  @Matches(/^\d{1,6}(,\d{1,6}){0,19}$/, { message: 'must be a comma-separated list of 1 to 20 whole seconds' })
  WEBHOOK_RETRY_DELAYS_SECONDS = '5,300,1800,7200,18000,36000,36000';

  /** Hours an endpoint may keep failing (no success since its first failure) before it is disabled. */
  @IsIntegerBetween(1, 24 * 30)
  WEBHOOK_DISABLE_AFTER_HOURS = 72;

  /** Pending deliveries an endpoint may have; past it new events skip it and it is disabled. */
  @IsIntegerBetween(1, 1_000_000)
  WEBHOOK_MAX_PENDING_PER_ENDPOINT = 1_000;

  /** Days a webhook delivery and its attempts (the delivery log) are kept. */
  @IsIntegerBetween(1, 3_650)
  WEBHOOK_DELIVERY_RETENTION_DAYS = 30;

  /** How often the webhook delivery engine looks for new events and due deliveries when nothing nudged it (WebhookDeliveryEngine). */
  @IsIntegerBetween(50, 60_000)
  WEBHOOK_DISPATCH_POLL_MS = 1_000;

  /** Webhook delivery attempts one replica runs at once (at most one per endpoint across replicas). */
  @IsIntegerBetween(1, 100)
  WEBHOOK_DELIVERY_CONCURRENCY = 10;
}

/** Outside production only: the key used when SIGN_UP_SECRET is not set. */
export const DEVELOPMENT_SIGN_UP_SECRET = 'development-only sign-up secret, never used in production';
