export { AppFoundationModule } from './app-foundation.module';
export type { AppFoundationOptions } from './app-foundation.module';
