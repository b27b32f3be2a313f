import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig } from '@platform/config';

/** services-api's environment (README, Configuration). */
export class ServicesApiConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  SERVICES_API_PORT = 3000;

  /** How long a request waits for core-tenants over the transport before 504 5904. */
  @IsIntegerBetween(100, 60_000)
  CORE_TENANTS_RPC_TIMEOUT_MS = 5_000;
}
