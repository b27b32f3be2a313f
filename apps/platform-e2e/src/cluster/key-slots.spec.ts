import { randomUUID } from 'node:crypto';
import { connectionKey, connectionRemovalKey, connectionTombstoneKey, Principal } from '@platform/auth';
import { keySlot } from '@platform/redis';
import { principalSubjectOf, quotaCounterKey, tenantSubjectOf } from '@platform/request-budgets';
import { describe, expect, it } from 'vitest';

/**
 * Every Lua script, transaction (MULTI) and multi-key command of the shared
 * libraries, with the keys the code gives it (each app lists its own in its
 * key-slots.spec.ts). On a Redis Cluster each must touch one
 * slot (CROSSSLOT otherwise), so keys used together share a hash tag. The
 * slot is computed as Redis does (CRC16 of the hash tag, modulo 16384); no
 * Redis is needed.
 */
const tenantID = randomUUID();
const connection: Principal = { kind: 'pluginConnection', pluginConnectionID: randomUUID(), pluginID: randomUUID(), tenantID } as Principal;
const connectionID = randomUUID();

const multiKeyCommands: { what: string; keys: string[] }[] = [
  {
    what: 'request budgets: a plugin connection charges its own budget and its tenant\'s in one script (fixed-window-counters.ts, CHARGE_SCRIPT)',
    keys: [quotaCounterKey('services-api', 'principal', principalSubjectOf(connection)), quotaCounterKey('services-api', 'tenant', tenantSubjectOf(tenantID))],
  },
  { what: 'request budgets: a lease and a give-back (LEASE_SCRIPT, GIVE_BACK_SCRIPT)', keys: [quotaCounterKey('services-api', 'tenant', tenantSubjectOf(tenantID))] },
  { what: 'credential cache: a lookup (MGET entry, tombstone, removal mark)', keys: [connectionKey(connectionID), connectionTombstoneKey(connectionID), connectionRemovalKey(connectionID)] },
  { what: 'credential cache: a removal begins (MULTI SET removal mark, DEL entry)', keys: [connectionRemovalKey(connectionID), connectionKey(connectionID)] },
  { what: 'credential cache: a revocation (MULTI SET tombstone, DEL entry)', keys: [connectionTombstoneKey(connectionID), connectionKey(connectionID)] },
];

describe('Redis keys used together', () => {
  it.each(multiKeyCommands)('$what: one cluster slot', ({ keys }) => {
    expect(new Set(keys.map(keySlot)).size).toBe(1);
  });

  it('computes slots as Redis does', () => {
    // CLUSTER KEYSLOT answers of a Redis 7 server.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('123456789')).toBe(12739);
    expect(keySlot('{user1000}.following')).toBe(3443);
    // An empty tag is no tag: the whole key is hashed.
    expect(keySlot('foo{}{bar}')).toBe(8363);
    expect(keySlot('auth:v2:connection:{c:c1}')).toBe(14433);
  });

  it('refuses keys of one command in two slots, as the untagged names of the previous release were', () => {
    const slots = new Set(['auth:v2:connection:c1', 'auth:v2:connection-revoked:c1'].map(keySlot));
    expect(slots.size).toBe(2);
  });
});
