import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig, Secret } from '@platform/config';
import { IsString, Matches, ValidateBy, ValidateIf } from 'class-validator';

const inProduction = (config: PluginsHelpdeskConfig) => config.NODE_ENV === 'production';

/** plugins-helpdesk's environment (docs/configuration.md). */
export class PluginsHelpdeskConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  PLUGINS_HELPDESK_PORT = 3001;

  /** Port of `GET /metrics` (Prometheus), apart from the API's so the Ingress never exposes it; 0 picks a free port. */
  @IsIntegerBetween(0, 65535)
  METRICS_PORT = 9465;

  /** The plugin record that is "the helpdesk plugin": its URN (plugins.urn). */
  @Matches(/^urn:\S+$/, { message: 'must be a URN (urn:...)' })
  HELPDESK_PLUGIN_URN = 'urn:plugin:helpdesk';

  /** The hostname customers point their domain at by CNAME (in front of the fallback origin). */
  @Matches(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, { message: 'must be a lower-case hostname' })
  HELPDESK_CNAME_TARGET = 'customers.helpdesk.localhost';

  /** Domains one tenant's help center may have at once, pending ones included (each costs a provider hostname). */
  @IsIntegerBetween(1, 10_000)
  HELPDESK_MAX_DOMAINS_PER_TENANT = 20;

  /** Days a domain may stay pending after it was added; then it is removed at the provider and its hostname released. */
  @IsIntegerBetween(1, 365)
  HELPDESK_PENDING_DOMAIN_TTL_DAYS = 7;

  /** How often each replica looks for expired pending domains. */
  @IsIntegerBetween(10, 86_400)
  HELPDESK_DOMAIN_SWEEP_INTERVAL_SECONDS = 900;

  /**
   * Cloudflare API v4 base URL, including `/client/v4`. `npm start` points it at
   * the provider sandbox when it is not set.
   */
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  CLOUDFLARE_BASE_URL = 'https://api.cloudflare.com/client/v4';

  /** API token with the zone's SSL and Certificates edit permission. Required in production. */
  @ValidateIf((config: PluginsHelpdeskConfig) => inProduction(config) || config.CLOUDFLARE_API_TOKEN !== undefined)
  @IsString({ message: 'must be an API token (required in production)' })
  @Secret({ minLength: 20 })
  CLOUDFLARE_API_TOKEN?: string;

  /** The SaaS zone whose custom hostnames serve help centers (32 hex digits). Required in production. */
  @ValidateIf((config: PluginsHelpdeskConfig) => inProduction(config) || config.CLOUDFLARE_ZONE_ID !== undefined)
  @ValidateBy(
    {
      name: 'isZoneId',
      validator: {
        validate: (value, args) =>
          typeof value === 'string' && (inProduction(args?.object as PluginsHelpdeskConfig) ? /^[0-9a-f]{32}$/ : /^[A-Za-z0-9_-]{1,64}$/).test(value),
      },
    },
    { message: 'must be a zone identifier, 32 hex digits in production (required in production)' },
  )
  CLOUDFLARE_ZONE_ID?: string;

  /** Time limit of one provider request, per attempt. */
  @IsIntegerBetween(100, 60_000)
  CLOUDFLARE_TIMEOUT_MS = 5_000;

  /** Retries of a provider request that timed out or got 408/409/429/5xx. */
  @IsIntegerBetween(0, 5)
  CLOUDFLARE_MAX_RETRIES = 1;

  /** Domain set-up is occasional work: a few requests a minute, a set-up screen polling a status (docs/security.md). */
  override RATE_LIMIT_PRINCIPAL = '600/60s';

  /** All of a tenant's operators and its helpdesk integration together; also bounds the provider calls it causes. */
  override RATE_LIMIT_TENANT = '1200/60s';
}

/** Outside production, a missing token or zone means the local provider sandbox. */
export const SANDBOX_CLOUDFLARE_API_TOKEN = 'sandbox-api-token';
export const SANDBOX_CLOUDFLARE_ZONE_ID = 'sandbox-zone';
