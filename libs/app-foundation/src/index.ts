export { AppFoundationModule } from './app-foundation.module';
export type { AppFoundationOptions } from './app-foundation.module';
export { Clock } from './clock';
export { DueWorkLoop } from './due-work-loop';
