import { AppException, FieldError } from '@platform/errors';

/**
 * What a 1002 on text PostgreSQL cannot store accepts. PostgreSQL's `text`
 * refuses U+0000 outright; `jsonb` refuses the escape `\u0000` and unpaired
 * surrogate escapes, and the driver turns a lone surrogate in `text` into
 * U+FFFD, storing something other than what was sent.
 */
export const STORABLE_TEXT = 'text without U+0000 or unpaired surrogates (U+D800-U+DFFF)';

/**
 * U+0000, or a surrogate code unit that is not half of a pair: with the `u`
 * flag a paired surrogate reads as one code point, so `\p{Cs}` matches only
 * unpaired ones (what `String.prototype.isWellFormed` checks, ES2024).
 */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Whether `text` can be stored in PostgreSQL exactly as sent. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** A key or value as it reads in a 1002: JSON escapes make U+0000 and lone surrogates visible. */
function visible(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function joined(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * The first string or object key inside `value` that PostgreSQL cannot store,
 * as a 1002 field named by its dotted path (the key itself for a key), or
 * undefined when all text in it can be stored. Depth is bounded by the JSON
 * body parser's limit, and query and path values are flat.
 */
export function unstorableTextIn(value: unknown, path: string): FieldError | undefined {
  if (typeof value === 'string') {
    return isStorableText(value) ? undefined : { field: path, received: visible(value), allowed: STORABLE_TEXT };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = unstorableTextIn(value[index], joined(path, String(index)));
      if (found) return found;
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isStorableText(key)) return { field: joined(path, visible(key)), received: visible(key), allowed: STORABLE_TEXT };
    const found = unstorableTextIn((value as Record<string, unknown>)[key], joined(path, key));
    if (found) return found;
  }
  return undefined;
}

/** The parts of a request that reach SQL and are checked, in the order they are reported. */
export interface RequestText {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * Refuses, with 400 1002 on the offending field, a request whose path
 * parameters, query or JSON body hold text PostgreSQL cannot store. Fields are
 * named as the validation pipe names them: the parameter name, or the dotted
 * path inside the body (`body` for a body that is itself a string).
 *
 * Headers are not checked: Node's HTTP parser refuses U+0000 in them, and
 * their bytes are read as Latin-1, so they cannot hold a surrogate.
 */
export function assertStorableText(request: RequestText): void {
  const found =
    unstorableTextIn(request.params, '') ??
    unstorableTextIn(request.query, '') ??
    (typeof request.body === 'string' ? bodyString(request.body) : unstorableTextIn(request.body, ''));
  if (found) throw AppException.validation([found]);
}

/** A body that is itself a string is answered with its JSON type only: it may be anything, a password included. */
function bodyString(body: string): FieldError | undefined {
  return isStorableText(body) ? undefined : { field: 'body', received: 'string', allowed: STORABLE_TEXT };
}
