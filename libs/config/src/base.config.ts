import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { IsAccessLog } from './access-log';
import { IsIntegerBetween } from './port';
import { IsRateLimit } from './rate-limit';
import { IsRedisClusterNodes, NamesDatabaseZeroWithCluster } from './redis-cluster';
import { CarriesRedisCredentialsInProduction } from './redis-credentials';
import { Secret } from './secret';
import { IsTrustedProxies } from './trusted-proxies';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** An origin as browsers serialise it: lower-case scheme and host, a port only when not the default. */
const ORIGIN = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

const TRANSPORT_SECRET_RULE = 'must be a random string of at least 32 characters';

/** Variables every app reads (docs/configuration.md). Defaults are for local use. */
export class BaseConfig {
  @IsIn(['development', 'test', 'production'], { message: 'must be one of: development, test, production' })
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsIn(LOG_LEVELS, { message: `must be one of: ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /**
   * Which requests get a `request completed` line (docs/observability.md,
   * Access log): `all`, `errors` (4xx and 5xx) or `sample:<fraction>` (errors
   * and that fraction of the rest). Unset: `sample:0.05` with
   * NODE_ENV=production, else `all`. Metrics and traces count every request
   * whatever it says.
   */
  @IsOptional()
  @IsAccessLog()
  ACCESS_LOG?: string;

  /** A request that took at least this long (ms) is logged whatever ACCESS_LOG says. */
  @IsIntegerBetween(0, 600_000)
  ACCESS_LOG_SLOW_MS = 1_000;

  /** May carry the password: a placeholder in it is refused in production. */
  @Secret({ minLength: 0 })
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL!: string;

  @Type(() => Number)
  @IsInt({ message: 'must be an integer 1-100' })
  @Min(1, { message: 'must be an integer 1-100' })
  @Max(100, { message: 'must be an integer 1-100' })
  DATABASE_POOL_SIZE = 10;

  /** Production refuses one without a password (an ACL user's, docs/deployment.md). */
  @Secret({ minLength: 0 })
  @CarriesRedisCredentialsInProduction()
  @NamesDatabaseZeroWithCluster()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL!: string;

  /**
   * Seeds of a Redis Cluster, `host:port,host:port`: set, every Redis
   * connection (clients, transport, subscribers) is a cluster client that
   * authenticates with REDIS_URL's credentials and scheme; unset, the single
   * Redis of REDIS_URL (docs/scaling.md, Redis Cluster).
   */
  @IsOptional()
  @IsRedisClusterNodes()
  REDIS_CLUSTER_NODES?: string;

  /**
   * Namespace of the transport's Redis channels (docs/transport.md): two
   * environments on one Redis server must have different ones. Required in
   * production; elsewhere it defaults to the name of the app's database.
   */
  @ValidateIf((config: BaseConfig) => config.NODE_ENV === 'production' || config.TRANSPORT_NAMESPACE !== undefined)
  @Matches(/^[A-Za-z0-9][\w.-]{0,62}$/, {
    message: 'must be 1-63 letters, digits, ".", "_" or "-", one per environment sharing a Redis server (required in production)',
  })
  TRANSPORT_NAMESPACE?: string;

  /**
   * Key of the MAC every transport message carries (docs/transport.md),
   * the same for services-api and core-tenants. Required in production by the
   * apps that speak the transport; elsewhere a fixed development key.
   */
  @IsOptional()
  @Secret({ minLength: 32 })
  @IsString({ message: TRANSPORT_SECRET_RULE })
  @MinLength(32, { message: TRANSPORT_SECRET_RULE })
  TRANSPORT_SECRET?: string;

  /**
   * During a rotation only: a second key accepted on receipt, never used to
   * sign: the next key until every app signs with it, then the replaced one
   * until none does (docs/transport.md, Rotating the key).
   */
  @IsOptional()
  @Secret({ minLength: 32 })
  @IsString({ message: TRANSPORT_SECRET_RULE })
  @MinLength(32, { message: TRANSPORT_SECRET_RULE })
  TRANSPORT_SECRET_ACCEPTED?: string;

  /** A transport message signed longer ago than this (or this far in the future) is dropped: clock skew plus Redis latency. */
  @IsIntegerBetween(500, 60_000)
  TRANSPORT_MAX_MESSAGE_AGE_MS = 5_000;

  /**
   * Seals the authorization entries every app keeps in Redis (HMAC-SHA256,
   * docs/security.md, Caches in Redis): the same value in every app. Required
   * in production, where the development value is refused; at least 32 characters.
   */
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be a secret of at least 32 characters, the same in every app' })
  CACHE_SECRET = 'development-only-cache-secret-not-for-production';

  /** During a rotation, the previous CACHE_SECRET: entries it sealed are still accepted (docs/security.md). */
  @IsOptional()
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be the previous CACHE_SECRET' })
  CACHE_SECRET_PREVIOUS?: string;

  /**
   * Seconds an unknown plugin or connection id is answered 401 from Redis
   * without a PostgreSQL query; 0 turns it off. A plugin registered meanwhile
   * works once it lapses (installed connections clear it at once).
   */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 0-60' })
  @Min(0, { message: 'must be an integer 0-60' })
  @Max(60, { message: 'must be an integer 0-60' })
  AUTH_UNKNOWN_CREDENTIAL_CACHE_SECONDS = 5;

  /** Request bodies above this size are refused with 413 (docs/http-conventions.md). */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 1024-10485760' })
  @Min(1024, { message: 'must be an integer 1024-10485760' })
  @Max(10 * 1024 * 1024, { message: 'must be an integer 1024-10485760' })
  HTTP_BODY_LIMIT_BYTES = 1024 * 1024;

  /** Time a client has to send a request's line and headers before it is answered 408 (docs/http-conventions.md). */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 100-300000' })
  @Min(100, { message: 'must be an integer 100-300000' })
  @Max(300_000, { message: 'must be an integer 100-300000' })
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** Time a client has to send a whole request, body included, before it is answered 408. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 100-300000' })
  @Min(100, { message: 'must be an integer 100-300000' })
  @Max(300_000, { message: 'must be an integer 100-300000' })
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * Browser origins allowed to call the app (CORS), comma-separated, each
   * `scheme://host[:port]` exactly as browsers send it. Empty: CORS is off.
   */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((origin) => origin.trim()).filter(Boolean) : value))
  @Matches(ORIGIN, { each: true, message: 'must be a comma-separated list of origins such as https://app.example.com (scheme, host, optional port; no path)' })
  CORS_ALLOWED_ORIGINS: string[] = [];

  /**
   * Whether the app serves its OpenAPI document (`/openapi.json`) and API
   * reference (`/docs`): `on` or `off`. Unset: on, except with
   * NODE_ENV=production, where a public map of the API helps an attacker more
   * than a client (clients use docs/openapi/ and the typed client).
   */
  @IsOptional()
  @IsIn(['on', 'off'], { message: 'must be on or off' })
  API_DOCS?: 'on' | 'off';

  /** How long a browser may reuse a CORS preflight answer. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 0-86400' })
  @Min(0, { message: 'must be an integer 0-86400' })
  @Max(86_400, { message: 'must be an integer 0-86400' })
  CORS_MAX_AGE_SECONDS = 600;

  /**
   * The proxies in front of the app whose `X-Forwarded-For` entries are
   * believed (`request.ip`, and every per-address limit, follow it): a hop
   * count or the proxies' addresses and CIDRs. Unset: none, the client is the
   * socket's peer. `true` is refused (docs/deployment.md, Client addresses).
   */
  @IsOptional()
  @IsTrustedProxies()
  TRUST_PROXY?: string;

  /** Time given to in-flight requests after SIGTERM before the process exits anyway. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 0-120000' })
  @Min(0, { message: 'must be an integer 0-120000' })
  @Max(120_000, { message: 'must be an integer 0-120000' })
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /**
   * How long an Idempotency-Key and its kept answer are kept (docs/idempotency.md),
   * read by the apps whose create operations take one (services-api, plugins-helpdesk).
   */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 60-2592000' })
  @Min(60, { message: 'must be an integer 60-2592000' })
  @Max(30 * 86_400, { message: 'must be an integer 60-2592000' })
  IDEMPOTENCY_KEY_RETENTION_SECONDS = 86_400;

  /**
   * How long a request holds its Idempotency-Key while it runs: a retry within
   * it is 409 1981; past it (the process died) the key can be claimed again.
   * Above the longest time limit of a create operation.
   */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 5-3600' })
  @Min(5, { message: 'must be an integer 5-3600' })
  @Max(3600, { message: 'must be an integer 5-3600' })
  IDEMPOTENCY_LEASE_SECONDS = 60;

  /** How often each replica deletes its app's expired Idempotency-Keys. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer 1-86400' })
  @Min(1, { message: 'must be an integer 1-86400' })
  @Max(86_400, { message: 'must be an integer 1-86400' })
  IDEMPOTENCY_SWEEP_INTERVAL_SECONDS = 600;

  /**
   * Requests one principal (operator, plugin or plugin connection) may make on
   * the app's authenticated operations per window: `<requests>/<seconds>s`, or
   * `off` (docs/security.md, Rate limits and quotas). Each app sets its default.
   */
  @IsRateLimit()
  RATE_LIMIT_PRINCIPAL = '600/60s';

  /** Requests on one tenant's data per window, all its principals together: `<requests>/<seconds>s`, or `off`. */
  @IsRateLimit()
  RATE_LIMIT_TENANT = '3000/60s';
}

/** The issuer and audience of operator JWTs, shared by the signer and the verifiers. */
export class OperatorTokenClaimsConfig extends BaseConfig {
  @IsString({ message: 'must be a string' })
  OPERATOR_JWT_ISSUER = 'core-tenants';

  @IsString({ message: 'must be a string' })
  OPERATOR_JWT_AUDIENCE = 'platform-api';
}

/** What verifying an operator JWT needs: the claims plus the public key (inline PEM or JWKS URL). */
export class OperatorTokenVerificationConfig extends OperatorTokenClaimsConfig {
  /** SPKI PEM of core-tenants' signing key; takes precedence over OPERATOR_JWKS_URL. */
  @IsOptional()
  @Matches(/-----BEGIN PUBLIC KEY-----/, { message: 'must be an SPKI PEM public key' })
  OPERATOR_JWT_PUBLIC_KEY?: string;

  /** core-tenants' /.well-known/jwks.json, used when no inline public key is given. */
  @ValidateIf((config: OperatorTokenVerificationConfig) => config.OPERATOR_JWT_PUBLIC_KEY === undefined)
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL (required when OPERATOR_JWT_PUBLIC_KEY is not set)' })
  OPERATOR_JWKS_URL?: string;
}

