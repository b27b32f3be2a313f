import type { BaseConfig } from '@platform/config';
import { IdempotencySettings } from './idempotent-request';

export interface IdempotencyModuleSettings extends IdempotencySettings {
  /** The app's name: the `app` of its rows in `idempotency_keys`. */
  app: string;
  /** How often expired keys are deleted (IDEMPOTENCY_SWEEP_INTERVAL_SECONDS). */
  sweepIntervalSeconds: number;
}

export const IDEMPOTENCY_SETTINGS = Symbol('IDEMPOTENCY_SETTINGS');
/** The key store port (IdempotencyKeyStore), PostgreSQL in the apps. */
export const IDEMPOTENCY_KEY_STORE = Symbol('IDEMPOTENCY_KEY_STORE');

/** The module's settings from an app's validated environment. */
export function idempotencySettingsOf(app: string, config: BaseConfig): IdempotencyModuleSettings {
  return {
    app,
    retentionSeconds: config.IDEMPOTENCY_KEY_RETENTION_SECONDS,
    leaseSeconds: config.IDEMPOTENCY_LEASE_SECONDS,
    sweepIntervalSeconds: config.IDEMPOTENCY_SWEEP_INTERVAL_SECONDS,
  };
}
