import { createHash, randomUUID } from 'node:crypto';

/**
 * The id of an install's intent, which becomes its connection's id. With the
 * client's (scoped) `Idempotency-Key` it is derived from the tenant, the
 * plugin and that key, so a retry finds the same intent and its provider
 * keys; without one, every install is new.
 */
export function installIntentID(input: { tenantID: string; pluginID: string; requestKey?: string }): string {
  if (input.requestKey === undefined) return randomUUID();
  const digest = createHash('sha256').update(`plugin-connection-install\n${input.tenantID}\n${input.pluginID}\n${input.requestKey}`).digest();
  // A UUID of version 8 (custom, RFC 9562) carrying 122 bits of the digest.
  digest[6] = (digest[6] & 0x0f) | 0x80;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The idempotency key of an intent's provider create (the subscription item
 * or the VM). Stable across attempts of one generation: the install, its
 * retries and the reconciler all get the one resource it made. A new
 * generation (an undone intent asked again) gets a new key, as the old one
 * answers the resource already released.
 */
export function providerIdempotencyKey(intentID: string, generation: number): string {
  return generation === 0 ? `install-${intentID}` : `install-${intentID}-${generation}`;
}
