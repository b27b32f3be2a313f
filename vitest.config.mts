import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

/** The same path aliases as tsconfig.base.json, for Vite's resolver (paths from the repository's root, where Vitest runs). */
const paths: Record<string, string[]> = JSON.parse(readFileSync(resolve('tsconfig.base.json'), 'utf8')).compilerOptions.paths;
const alias = Object.fromEntries(Object.entries(paths).map(([name, [target]]) => [name, resolve(target)]));

/**
 * Files that need a process of their own: the tracing spec starts OpenTelemetry before http, pg and ioredis load,
 * which a worker that already ran another file has loaded. They run in `npm run test:fresh-process`
 * (vitest.fresh-process.config.mts), part of `npm test`.
 */
export const FRESH_PROCESS_SPECS = ['apps/platform-e2e/src/observability/tracing.e2e-spec.ts'];

export default defineConfig({
  plugins: [
    // SWC instead of esbuild: Nest's dependency injection needs decorator metadata.
    swc.vite({ swcrc: false, module: { type: 'es6' }, jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true } } }),
  ],
  resolve: { alias },
  test: {
    include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'apps/**/*.e2e-spec.ts', 'tools/lint/*.spec.mjs', 'tools/openapi/*.spec.ts'],
    // The fault suite runs built apps in their own processes: vitest.faults.config.mts. The Redis Cluster
    // failover starts a cluster of its own and runs in `npm run test:redis-cluster`: vitest.redis-cluster.config.mts.
    exclude: [...configDefaults.exclude, 'apps/platform-e2e/src/faults/**', 'apps/platform-e2e/src/redis-cluster/**', ...FRESH_PROCESS_SPECS],
    globalSetup: ['apps/platform-e2e/src/support/global-setup.ts'],
    // Nest's logger keeps its lines and prints them only for a failing test (TEST_LOG=1 prints them all).
    setupFiles: ['reflect-metadata', 'libs/testing-doubles/src/capture-logs.setup.ts'],
    // Two files at a time, one per core of the machine CI runs on: each has its own PostgreSQL database
    // (so its own transport namespace) and each worker its own Redis database (libs/test-support/src/test-redis.ts).
    // TEST_WORKERS=1 runs them one at a time.
    fileParallelism: true,
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one file to the next instead of loading Nest, TypeORM and the
    // apps again for each: that loading was half the run's time. What a file changes it undoes (apps closed,
    // databases dropped, fake timers restored); a file that needs a fresh process is in FRESH_PROCESS_SPECS.
    isolate: false,
  },
});
