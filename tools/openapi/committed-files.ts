import { existsSync, readFileSync } from 'node:fs';

/** Where the apps' OpenAPI documents are committed. */
export const OPENAPI_DIR = 'docs/openapi';

/** Whether the committed file at `path` is missing or differs from `expected`. */
export function outOfDate(path: string, expected: string): boolean {
  return !existsSync(path) || readFileSync(path, 'utf8') !== expected;
}
