import { defineConfig, mergeConfig } from 'vitest/config';
import { redisServerBinaryMissing } from './libs/testing/src/redis-server-binary';
import base from './vitest.config';

/** The suite starts and stops a redis-server of its own; a machine without one skips it, saying why. */
const cannotRun = redisServerBinaryMissing();
if (cannotRun) process.stdout.write(`[fault suite] skipped: ${cannotRun}\n`);

/**
 * The fault suite (`npm run test:faults`, part of `npm test`): real app
 * processes built by `npm run build`, several replicas each, a redis-server of
 * its own, providers failing and coming back, replicas stopped under load.
 */
export default mergeConfig(
  { ...base, test: { ...base.test, include: [], exclude: [], globalSetup: [] } },
  defineConfig({
    test: {
      include: cannotRun ? [] : ['apps/platform-e2e/src/faults/**/*.e2e-spec.ts'],
      passWithNoTests: cannotRun !== undefined,
      globalSetup: ['apps/platform-e2e/src/faults/harness/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
);
