export { BaseConfig, LOG_LEVELS, OperatorTokenClaimsConfig, OperatorTokenVerificationConfig } from './base.config';
export type { LogLevel } from './base.config';
export { ConfigurationError, loadConfig } from './load-config';
export { IsIntegerBetween, IsPort } from './port';
export { exitOnStartupFailure } from './startup-failure';
