import { spawnSync } from 'node:child_process';

/**
 * Why tests that start their own `redis-server` (the fault suite) cannot run
 * here, or undefined when they can. CI (`CI=true`) runs everything: there a
 * missing binary fails. Node built-ins only: the fault suite's configuration
 * reads it before any path alias exists.
 */
export function redisServerBinaryMissing(): string | undefined {
  if (process.env.CI === 'true') return undefined;
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error ? 'no `redis-server` binary on this machine (it runs everywhere CI=true is set)' : undefined;
}
