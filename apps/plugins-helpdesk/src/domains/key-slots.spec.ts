import { randomUUID } from 'node:crypto';
import { keySlot } from '@platform/redis';
import { describe, expect, it } from 'vitest';
import { entryKey, tombstoneKey } from './hostname-directory';
import { refreshClaimKey } from './refresh-throttle';

const hostname = 'help.acme.example';

/**
 * plugins-helpdesk's Lua scripts, transactions and multi-key commands, with the keys the
 * code gives them: on a Redis Cluster each must touch one slot (CROSSSLOT
 * otherwise). Slots computed as Redis does; no Redis needed.
 */
const multiKeyCommands: { what: string; keys: string[] }[] = [
  { what: 'hostname directory: a lookup (MGET) and a fill (script checking the tombstone)', keys: [entryKey(hostname), tombstoneKey(hostname)] },
  { what: 'hostname directory: a removal (MULTI SET tombstone, DEL entry)', keys: [tombstoneKey(hostname), entryKey(hostname)] },
  { what: "help center domains: the refresh throttle's claim script", keys: [refreshClaimKey(randomUUID())] },
];

describe('Redis keys used together', () => {
  it.each(multiKeyCommands)('$what: one cluster slot', ({ keys }) => {
    expect(new Set(keys.map(keySlot)).size).toBe(1);
  });
});
