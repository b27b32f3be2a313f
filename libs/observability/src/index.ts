export { AppLogger } from './app-logger';
export { ObservabilityModule } from './logger.module';
export { loggerOptions, logRequests, REQUEST_ID_HEADER, requestIdOf } from './request-logging';
export type { LoggingSettings } from './request-logging';
