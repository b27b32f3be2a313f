import { randomUUID } from 'node:crypto';
import { keySlot } from '@platform/redis';
import { describe, expect, it } from 'vitest';
import { tokenKey } from './processing-traces/trace-credentials';
import { verificationKey } from './sign-up/verification-store';

const tenantID = randomUUID();

/**
 * services-api's Lua scripts, transactions and multi-key commands, with the keys the
 * code gives them: on a Redis Cluster each must touch one slot (CROSSSLOT
 * otherwise). Slots computed as Redis does; no Redis needed.
 */
const multiKeyCommands: { what: string; keys: string[] }[] = [
  {
    what: "trace credentials: a session's tokens for several plugins (MGET, MULTI of SETs)",
    keys: [randomUUID(), randomUUID(), randomUUID()].map((pluginID) => tokenKey(tenantID, 'session-1', pluginID)),
  },
  { what: 'sign-up verification: its scripts (send, restore, lift the resend limit, verify)', keys: [verificationKey('someone@example.com')] },
];

describe('Redis keys used together', () => {
  it.each(multiKeyCommands)('$what: one cluster slot', ({ keys }) => {
    expect(new Set(keys.map(keySlot)).size).toBe(1);
  });
});
