export { ObservabilityModule, REQUEST_ID_HEADER, requestIdOf } from './logger.module';
export type { LoggingSettings } from './logger.module';
