export { ObservabilityModule } from './logger.module';
export { REQUEST_ID_HEADER, requestIdOf, requestLoggingOptions } from './request-logging';
export type { LoggingSettings } from './request-logging';
