/**
 * The one rotation vocabulary of the platform's secrets (docs/security.md,
 * Keys and rotation): `current` seals and signs, and opens and verifies;
 * each key of `previous` only opens and verifies. During a rotation
 * `previous` holds the key being retired, or, in the first step of a
 * three-step rotation, the key about to become current.
 */
export interface KeySet {
  current: string;
  /** One key or several; unset, empty and blank entries are ignored (an unset `*_PREVIOUS` variable). */
  previous?: string | readonly (string | undefined)[];
}

/**
 * The keys of a set in trial order: current first, then the previous ones
 * in the order given. No sealed value or MAC carries a key id (their
 * formats predate the keyring, and replicas of an earlier release read
 * them), so opening tries each key in this order and stops at the first
 * that opens. Which key opened is not secret; the comparison against each
 * key is constant-time.
 */
export function keysInTrialOrder(keys: KeySet): string[] {
  if (!keys.current) throw new Error('A key set needs a current key');
  const previous = typeof keys.previous === 'string' ? [keys.previous] : (keys.previous ?? []);
  return [keys.current, ...previous.filter((key): key is string => typeof key === 'string' && key.trim() !== '')];
}
