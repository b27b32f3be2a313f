import 'reflect-metadata';
import { exitOnStartupFailure } from '@platform/config';
import { runMigrations } from '@platform/database';
import { OUT_OF_REACH_RATE_LIMITS } from '@platform/testing';
import { loadLocalEnvironment } from '../support/env-file';
import { BenchContext, recreateDatabase } from './context';
import { SCENARIOS } from './scenarios';

/**
 * `npm run bench [-- scenario ...]`: figures for docs/benchmarks.md,
 * on this machine, one run. Each scenario works in a fresh database
 * (BENCH_DATABASE, default platform_bench) and Redis database 14
 * (BENCH_REDIS_URL), and starts the apps it measures as separate processes on
 * loopback ports from BENCH_PORT_BASE (default 3900). Options after the
 * names (`--messages 100000`) go to the scenarios that read them.
 */
async function main(): Promise<void> {
  loadLocalEnvironment();
  const { wanted, options } = parseArguments(process.argv.slice(2));
  const unknown = wanted.filter((name) => !(name in SCENARIOS));
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);

  const admin = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const portBase = Number(process.env.BENCH_PORT_BASE ?? 3900);
  for (const name of wanted.length ? wanted : Object.keys(SCENARIOS)) {
    const databaseUrl = await recreateDatabase(admin.toString(), process.env.BENCH_DATABASE ?? 'platform_bench');
    await runMigrations(databaseUrl);
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
    const context: BenchContext = {
      databaseUrl,
      redisUrl,
      portBase,
      options,
      // Metrics on any free port, so a run never meets `npm start` or another run on the machine.
      // Request budgets on but out of reach: a run is one operator or plugin sending thousands of requests.
      env: { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'warn', NODE_ENV: 'development', METRICS_PORT: '0', ...OUT_OF_REACH_RATE_LIMITS },
    };
    process.stdout.write(`\n## ${name}\n`);
    await SCENARIOS[name](context);
  }
}

/** Scenario names, and `--name value` options (a bare `--name` before another option or the end: ''). */
function parseArguments(args: string[]): { wanted: string[]; options: Record<string, string> } {
  const wanted: string[] = [];
  const options: Record<string, string> = {};
  for (let index = 0; index < args.length; index += 1) {
    const option = /^--(.+)$/.exec(args[index]);
    if (!option) wanted.push(args[index]);
    else if (index + 1 < args.length && !args[index + 1].startsWith('--')) options[option[1]] = args[(index += 1)];
    else options[option[1]] = '';
  }
  return { wanted, options };
}

main().catch(exitOnStartupFailure);
