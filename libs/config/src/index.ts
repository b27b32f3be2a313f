export { BaseConfig, LOG_LEVELS, OperatorTokenClaimsConfig, OperatorTokenVerificationConfig } from './base.config';
export type { LogLevel } from './base.config';
export { ConfigurationError, loadConfig } from './load-config';
export { IsIntegerBetween, IsPort } from './port';
export { DependencyUnreachableError, ensureReachable, platformDependencies, postgresDependency, redisDependency } from './dependency-reachability';
export type { Dependency } from './dependency-reachability';
export { DEFAULT_SECRET_MIN_LENGTH, placeholderReason, Secret, secretVariablesOf } from './secret';
export type { SecretOptions } from './secret';
export { exitOnStartupFailure } from './startup-failure';
