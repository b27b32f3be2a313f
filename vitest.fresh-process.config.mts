import { defineConfig, mergeConfig } from 'vitest/config';
import base, { FRESH_PROCESS_SPECS } from './vitest.config.mjs';

/**
 * The files that need a process of their own (`npm run test:fresh-process`,
 * part of `npm test`): each runs in a fresh worker, as Vitest runs files by
 * default, on the same services and setup as the main run.
 */
export default mergeConfig(
  { ...base, test: { ...base.test, include: [], exclude: [] } },
  defineConfig({ test: { include: FRESH_PROCESS_SPECS, isolate: true } }),
);
