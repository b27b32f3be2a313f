import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig } from '@platform/config';
import { IsString, Matches, MinLength, ValidateIf } from 'class-validator';

/** k8s/secret.example.yaml's placeholder never passes for a secret. */
const PLACEHOLDER_REFUSED = /^(?!change-me$)\S+$/;

const inProduction = (config: ServicesApiConfig) => config.NODE_ENV === 'production';

/** services-api's environment (README, Configuration). */
export class ServicesApiConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  SERVICES_API_PORT = 3000;

  /** How long a request waits for core-tenants over the transport before 504 5904. */
  @IsIntegerBetween(100, 60_000)
  CORE_TENANTS_RPC_TIMEOUT_MS = 5_000;

  /** Message-template provider (WhatsApp Business Cloud API): base URL, without the version. */
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'must be an http(s) URL' })
  WHATSAPP_API_BASE_URL = 'https://graph.facebook.com';

  /** Graph API version segment of every provider path. */
  @Matches(/^v\d+\.\d+$/, { message: 'must look like v21.0' })
  WHATSAPP_API_VERSION = 'v21.0';

  /** System-user access token the platform acts with on its clients' WhatsApp Business Accounts. Required in production. */
  @ValidateIf((config: ServicesApiConfig) => inProduction(config) || config.WHATSAPP_ACCESS_TOKEN !== undefined)
  @IsString({ message: 'must be a non-empty string, not a placeholder (required in production)' })
  @Matches(PLACEHOLDER_REFUSED, { message: 'must be a non-empty string, not a placeholder (required in production)' })
  WHATSAPP_ACCESS_TOKEN?: string;

  /** App secret the provider signs status webhooks with (X-Hub-Signature-256). Required in production; without it every delivery is refused. */
  @ValidateIf((config: ServicesApiConfig) => inProduction(config) || config.WHATSAPP_APP_SECRET !== undefined)
  @IsString({ message: 'must be at least 16 characters (required in production)' })
  @MinLength(16, { message: 'must be at least 16 characters (required in production)' })
  @Matches(PLACEHOLDER_REFUSED, { message: 'must be at least 16 characters (required in production)' })
  WHATSAPP_APP_SECRET?: string;

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
}
