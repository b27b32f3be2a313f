/**
 * A LIKE/ILIKE pattern matching `text` anywhere, with LIKE's wildcards (`%`,
 * `_`) and its escape character (`\`, PostgreSQL's default) in `text` taken
 * as plain characters.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
