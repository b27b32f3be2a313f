import { IsIntegerBetween, IsPort, OperatorTokenClaimsConfig } from '@platform/config';
import { IsOptional, IsString, Matches } from 'class-validator';

/** core-tenants' environment (README, Configuration). */
export class CoreTenantsConfig extends OperatorTokenClaimsConfig {
  @IsPort()
  CORE_TENANTS_PORT = 3002;

  /**
   * PKCS#8 PEM of the Ed25519 key that signs operator tokens. Required in
   * production; elsewhere a key is generated on first run into OPERATOR_JWT_KEY_FILE.
   */
  @IsOptional()
  @Matches(/-----BEGIN PRIVATE KEY-----/, { message: 'must be a PKCS#8 PEM private key' })
  OPERATOR_JWT_PRIVATE_KEY?: string;

  @IsString({ message: 'must be a file path' })
  OPERATOR_JWT_KEY_FILE = '.data/operator-jwt-signing-key.pem';

  @IsIntegerBetween(60, 86_400)
  OPERATOR_JWT_TTL_SECONDS = 3_600;

  @IsIntegerBetween(1, 10_000)
  SIGN_IN_ATTEMPTS_PER_ADDRESS = 10;

  @IsIntegerBetween(1, 1_000_000)
  SIGN_IN_ATTEMPTS_PER_IP = 100;

  @IsIntegerBetween(1, 86_400)
  SIGN_IN_WINDOW_SECONDS = 900;
}
