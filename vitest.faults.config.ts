import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The fault suite (`npm run test:faults`, part of `npm test`): real app
 * processes built by `npm run build`, several replicas each, a redis-server of
 * its own, providers failing and coming back, replicas stopped under load.
 */
export default mergeConfig(
  { ...base, test: { ...base.test, include: [], exclude: [], globalSetup: [] } },
  defineConfig({
    test: {
      include: ['apps/platform-e2e/src/faults/**/*.e2e-spec.ts'],
      globalSetup: ['apps/platform-e2e/src/faults/harness/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
);
