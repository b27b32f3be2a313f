import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@platform/config';
import { DEVELOPMENT_TRANSPORT_SECRET, reconnectDelayMs, replyChannel, requestChannel, transportNamespaceOf, transportSettingsOf } from './transport-settings';

describe('transport namespace', () => {
  it('defaults to the name of the app database, so environments with their own databases differ', () => {
    expect(transportNamespaceOf({ DATABASE_URL: 'postgres://app:secret@db.internal:5432/platform' })).toBe('db.platform');
    expect(transportNamespaceOf({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform_test_0a1b2c' })).toBe('db.platform_test_0a1b2c');
  });

  it('never carries credentials or hosts of the database URL', () => {
    expect(transportNamespaceOf({ DATABASE_URL: 'postgres://app:secret@db.internal:5432/platform' })).not.toMatch(/secret|internal|app:/);
  });

  it('takes TRANSPORT_NAMESPACE over the default', () => {
    expect(transportNamespaceOf({ TRANSPORT_NAMESPACE: 'staging', DATABASE_URL: 'postgres://127.0.0.1/platform' })).toBe('staging');
  });

  it('puts every request and reply channel in the namespace', () => {
    expect(requestChannel('staging', 'plugin-connections.delete')).toBe('staging:plugin-connections.delete');
    expect(replyChannel('staging', 'plugin-connections.delete')).toBe('staging:plugin-connections.delete.reply');
  });
});

describe('reconnection delay', () => {
  it('starts quick and settles at one second, without ever giving up', () => {
    expect(reconnectDelayMs(1)).toBe(100);
    expect(reconnectDelayMs(5)).toBe(500);
    expect(reconnectDelayMs(1_000_000)).toBe(1_000);
  });
});

describe('transport key', () => {
  const source = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://127.0.0.1/platform', TRANSPORT_MAX_MESSAGE_AGE_MS: 5_000 };

  it('is required in production, where the app refuses to start without it', () => {
    expect(() => transportSettingsOf({ ...source, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' })).toThrow(ConfigurationError);
    expect(() => transportSettingsOf({ ...source, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' })).toThrow(/TRANSPORT_SECRET is missing/);
  });

  it('is the development key elsewhere, so that apps started apart agree on it', () => {
    expect(transportSettingsOf({ ...source, NODE_ENV: 'test' }).authentication).toEqual({ secret: DEVELOPMENT_TRANSPORT_SECRET, acceptedSecret: undefined, maxAgeMs: 5_000 });
  });

  it('takes the configured key and the accepted one during a rotation', () => {
    const settings = transportSettingsOf({ ...source, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', TRANSPORT_SECRET: 'a'.repeat(32), TRANSPORT_SECRET_ACCEPTED: 'b'.repeat(32) });
    expect(settings.authentication).toEqual({ secret: 'a'.repeat(32), acceptedSecret: 'b'.repeat(32), maxAgeMs: 5_000 });
  });
});
