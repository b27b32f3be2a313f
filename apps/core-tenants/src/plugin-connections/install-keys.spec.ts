import { describe, expect, it } from 'vitest';
import { installIntentID, providerIdempotencyKey } from './install-keys';

const tenantID = '2f7a3c1e-5b8d-4e6f-9a0b-1c2d3e4f5a6b';
const pluginID = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

describe('install keys', () => {
  it('derives the same intent id from the same tenant, plugin and client key', () => {
    const requestKey = 'a'.repeat(64);
    expect(installIntentID({ tenantID, pluginID, requestKey })).toBe(installIntentID({ tenantID, pluginID, requestKey }));
  });

  it('derives a UUID', () => {
    expect(installIntentID({ tenantID, pluginID, requestKey: 'b'.repeat(64) })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('derives different ids for another key, plugin or tenant', () => {
    const base = installIntentID({ tenantID, pluginID, requestKey: 'c'.repeat(64) });
    expect(installIntentID({ tenantID, pluginID, requestKey: 'd'.repeat(64) })).not.toBe(base);
    expect(installIntentID({ tenantID: pluginID, pluginID, requestKey: 'c'.repeat(64) })).not.toBe(base);
    expect(installIntentID({ tenantID, pluginID: tenantID, requestKey: 'c'.repeat(64) })).not.toBe(base);
  });

  it('makes a new id for every install without a client key', () => {
    expect(installIntentID({ tenantID, pluginID })).not.toBe(installIntentID({ tenantID, pluginID }));
  });

  it('keeps the provider key across attempts of one generation and changes it with the generation', () => {
    const id = installIntentID({ tenantID, pluginID });
    expect(providerIdempotencyKey(id, 0)).toBe(`install-${id}`);
    expect(providerIdempotencyKey(id, 0)).toBe(providerIdempotencyKey(id, 0));
    expect(providerIdempotencyKey(id, 1)).not.toBe(providerIdempotencyKey(id, 0));
  });
});
