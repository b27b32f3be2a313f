export { BaseConfig, LOG_LEVELS, OperatorTokenClaimsConfig, OperatorTokenVerificationConfig } from './base.config';
export type { LogLevel } from './base.config';
export { ConfigurationError, loadConfig } from './load-config';
export { IsIntegerBetween, IsPort } from './port';
export { DependencyUnreachableError, ensureReachable, platformDependencies, postgresDependency, redisDependency } from './dependency-reachability';
export type { Dependency } from './dependency-reachability';
export { exitOnStartupFailure } from './startup-failure';
