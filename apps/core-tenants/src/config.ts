import { IsIntegerBetween, IsPort, OperatorTokenClaimsConfig, Secret } from '@platform/config';
import { IsOptional, IsString, Matches, Validate, ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

const HTTP_URL = /^https?:\/\/\S+$/;

/**
 * An install's provider call and its database work must end before
 * services-api stops waiting: else a slow provider gives the client a 504
 * while the install completes, and the connection's token, shown once, is
 * lost. So the slower provider's time limit plus the database budget must
 * stay below the transport timeout.
 */
@ValidatorConstraint({ name: 'installFitsTransportTimeout' })
class InstallFitsTransportTimeout implements ValidatorConstraintInterface {
  validate(rpcTimeoutMs: unknown, args: ValidationArguments): boolean {
    const config = args.object as CoreTenantsConfig;
    return Number(rpcTimeoutMs) > Math.max(Number(config.BILLING_TIMEOUT_MS), Number(config.VM_PROVIDER_TIMEOUT_MS)) + Number(config.INSTALL_DATABASE_BUDGET_MS);
  }

  defaultMessage(): string {
    return 'must be greater than max(BILLING_TIMEOUT_MS, VM_PROVIDER_TIMEOUT_MS) + INSTALL_DATABASE_BUDGET_MS';
  }
}

/** core-tenants' environment (docs/configuration.md). */
export class CoreTenantsConfig extends OperatorTokenClaimsConfig {
  @IsPort()
  CORE_TENANTS_PORT = 3002;

  /** Port of `GET /metrics` (Prometheus), apart from the API's so the Ingress never exposes it; 0 picks a free port. */
  @IsIntegerBetween(0, 65535)
  METRICS_PORT = 9466;

  /**
   * PKCS#8 PEM of the Ed25519 key that signs operator tokens. Required in
   * production; elsewhere a key is generated on first run into OPERATOR_JWT_KEY_FILE.
   */
  @IsOptional()
  @Secret()
  @Matches(/-----BEGIN PRIVATE KEY-----/, { message: 'must be a PKCS#8 PEM private key' })
  OPERATOR_JWT_PRIVATE_KEY?: string;

  @IsString({ message: 'must be a file path' })
  OPERATOR_JWT_KEY_FILE = '.data/operator-jwt-signing-key.pem';

  @IsIntegerBetween(60, 86_400)
  OPERATOR_JWT_TTL_SECONDS = 3_600;

  /** Lifetime of the credentials sent to processing-trace providers (docs/processing-traces.md). */
  @IsIntegerBetween(60, 3_600)
  TRACE_TOKEN_TTL_SECONDS = 300;

  /** Attempts on one e-mail address from one client (address and User-Agent) per window (docs/authentication.md). */
  @IsIntegerBetween(1, 10_000)
  SIGN_IN_ATTEMPTS_PER_ADDRESS = 10;

  /**
   * Ceiling of attempts on one e-mail address from every client per window:
   * bounds guessing spread over many clients. Clients that signed in before pass it.
   */
  @IsIntegerBetween(1, 1_000_000)
  SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING = 300;

  /** How long a client (address and User-Agent) an operator signed in from stays known. */
  @IsIntegerBetween(1, 365)
  SIGN_IN_KNOWN_CLIENT_DAYS = 30;

  /** Password hashes (bcrypt) computed at once per process; more wait in the queue below. */
  @IsIntegerBetween(1, 64)
  PASSWORD_HASH_CONCURRENCY = 2;

  /** Password hashes waiting per process; past it sign-in answers 503 5903 with Retry-After at once. */
  @IsIntegerBetween(0, 1_000)
  PASSWORD_HASH_QUEUE = 8;

  @IsIntegerBetween(1, 1_000_000)
  SIGN_IN_ATTEMPTS_PER_IP = 100;

  @IsIntegerBetween(1, 86_400)
  SIGN_IN_WINDOW_SECONDS = 900;

  /** Billing provider (Stripe API): base URL, e.g. https://api.stripe.com or the local sandbox. */
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  BILLING_API_URL!: string;

  @Secret()
  @IsString({ message: 'must be the billing API secret key' })
  BILLING_API_KEY!: string;

  /** Below CORE_TENANTS_RPC_TIMEOUT_MS with the database budget (checked at boot). */
  @IsIntegerBetween(100, 60_000)
  BILLING_TIMEOUT_MS = 3_000;

  /** First retry delay of a failed subscription-item cancellation; doubles up to the max. */
  @IsIntegerBetween(100, 3_600_000)
  BILLING_CANCELLATION_RETRY_BASE_MS = 2_000;

  @IsIntegerBetween(100, 86_400_000)
  BILLING_CANCELLATION_RETRY_MAX_MS = 60_000;

  /** How often the cancellation worker looks for due cancellations. */
  @IsIntegerBetween(50, 60_000)
  BILLING_CANCELLATION_POLL_MS = 1_000;

  /** Hosted-VM provider (docs/providers/vm-provider.md): base URL and bearer token. */
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  VM_PROVIDER_URL!: string;

  @Secret()
  @IsString({ message: 'must be the VM provider token' })
  VM_PROVIDER_TOKEN!: string;

  /** Bounded below the services-api transport timeout, so a slow VM provider becomes 502 5002, not 504. */
  @IsIntegerBetween(100, 60_000)
  VM_PROVIDER_TIMEOUT_MS = 3_000;

  /**
   * services-api's transport timeout (the same variable): an install must end
   * before it, provider call and database work included (checked at boot).
   * Also how long an install holds its intent before the reconciler may take it.
   */
  @IsIntegerBetween(100, 60_000)
  @Validate(InstallFitsTransportTimeout)
  CORE_TENANTS_RPC_TIMEOUT_MS = 5_000;

  /** Time allowed for an install's database work around its provider call. */
  @IsIntegerBetween(50, 60_000)
  INSTALL_DATABASE_BUDGET_MS = 1_000;
}
