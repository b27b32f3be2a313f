import { createHash } from 'node:crypto';

/** Longest User-Agent taken into account: real ones are a few hundred characters. */
const MAX_USER_AGENT_LENGTH = 512;

/**
 * Who is signing in, as the sign-in limits tell clients apart: the client's
 * address (`clientAddressKey`: IPv6 by /64) and its User-Agent. The sign-in
 * body has no client identifier (the contract leaves sign-in open), and the
 * User-Agent is the one every browser and HTTP library sends on its own.
 * It is not a secret and a client can choose it; that is enough here, because
 * it only has to keep one client's failures from counting against another's:
 * to use up a person's attempts, an attacker must share their network *and*
 * guess their User-Agent. Normalised (trimmed, spaces collapsed, lower case,
 * at most 512 characters) and hashed, so keys stay short and hold no
 * client-written text.
 */
export function signInClientOf(addressKey: string, userAgent: string | undefined): string {
  const normalised = (userAgent ?? '').trim().replace(/\s+/g, ' ').toLowerCase().slice(0, MAX_USER_AGENT_LENGTH);
  const agent = createHash('sha256').update(normalised).digest('base64url').slice(0, 22);
  return `${addressKey}|${agent}`;
}
