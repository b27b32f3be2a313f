/**
 * Template names as the provider accepts them (docs/external-providers.md, Message templates): lowercase
 * letters, digits and `_`, at most 512 characters.
 */
export const MAX_NAME_LENGTH = 512;

/**
 * Highest suffix tried for a taken name: `order_update`, `order_update_2`,
 * ..., `order_update_100`; past it the name is 409 1066.
 */
export const MAX_NAME_SUFFIX = 100;

/**
 * The provider-valid form of a requested name, or undefined when nothing
 * valid is left. Accents are dropped (`Promoção` -> `promocao`), letters
 * lowered, every run of other characters becomes one `_`, and `_` at either
 * end is trimmed.
 */
export function normaliseTemplateName(requested: string): string | undefined {
  const normalised = requested
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/_+$/, '');
  return normalised.length > 0 ? normalised : undefined;
}

/** The name with suffix `n` (1 = the base itself), cut so the result keeps within 512 characters. */
export function candidateName(base: string, suffix: number): string {
  if (suffix === 1) return base;
  const tail = `_${suffix}`;
  return `${base.slice(0, MAX_NAME_LENGTH - tail.length)}${tail}`;
}

/**
 * The first suffix worth trying, given the names already taken that share
 * the base (a hint read without locks: the unique index decides).
 */
export function firstFreeSuffix(base: string, taken: Iterable<string>): number {
  const used = new Set(taken);
  for (let suffix = 1; suffix <= MAX_NAME_SUFFIX; suffix += 1) {
    if (!used.has(candidateName(base, suffix))) return suffix;
  }
  return MAX_NAME_SUFFIX + 1;
}
