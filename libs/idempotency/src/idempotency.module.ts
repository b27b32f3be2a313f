import { DynamicModule, Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_STORE, IDEMPOTENCY_SETTINGS, IdempotencyModuleSettings } from './idempotency-settings';
import { IdempotencySweeper } from './idempotency-sweeper';

/**
 * Idempotency keys for the app's `@Idempotent()` routes: the interceptor the
 * decorator applies, the PostgreSQL key store and the sweep of expired keys.
 * Global, so the interceptor resolves in every feature module.
 */
@Global()
@Module({})
export class IdempotencyModule {
  static forRoot(settings: IdempotencyModuleSettings): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [
        { provide: IDEMPOTENCY_SETTINGS, useValue: settings },
        IdempotencyKeysRepository,
        { provide: IDEMPOTENCY_KEY_STORE, useExisting: IdempotencyKeysRepository },
        IdempotencyInterceptor,
        IdempotencySweeper,
      ],
      exports: [IDEMPOTENCY_SETTINGS, IDEMPOTENCY_KEY_STORE, IdempotencyInterceptor, IdempotencySweeper, IdempotencyKeysRepository],
    };
  }
}
