import { createDataSource, rows, sql } from '@platform/database';
import type { Pool, PoolClient } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { BenchContext } from '../context';

const ITERATIONS = Number(process.env.BENCH_STATEMENT_ITERATIONS ?? 4_000);
const ROUNDS = Number(process.env.BENCH_STATEMENT_ROUNDS ?? 7);

/** A one-row primary-key read with two parameters, the shape of the small reads (op 14's count). */
const READ = sql<{ id: number; label: string; unread: number }, [id: number, tenantID: string]>(
  'SELECT id, label, unread FROM statement_path_bench WHERE id = $1 AND tenant_id = $2',
);
const PARAMETERS: [number, string] = [7, '00000000-0000-4000-8000-000000000001'];

interface Way {
  name: string;
  /** Runs the statement once; every way answers the same rows. */
  once: () => Promise<unknown>;
  /** Gives back a connection the way held for its run, so the next way gets the pool's one connection. */
  release?: () => Promise<void>;
}

/**
 * What each layer between a repository and pg costs per statement, in CPU
 * time of this process (`process.cpuUsage`, user + system): the same
 * statement, the same parameters, on one pooled connection (a pool of one,
 * so every way runs on the same backend), sent one after the other so no
 * two overlap. The ways run in turn, ITERATIONS statements each, ROUNDS
 * times, and each way's figure is the median of its rounds; the ratios are
 * to `pg Pool.query`, the floor's way (docs/benchmarks-cpu.md).
 */
export async function statementPath(context: BenchContext): Promise<void> {
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-statement-path' });
  await dataSource.initialize();
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  await dataSource.query('CREATE TABLE statement_path_bench (id int PRIMARY KEY, tenant_id uuid NOT NULL, label text NOT NULL, unread int NOT NULL)');
  await dataSource.query(`INSERT INTO statement_path_bench SELECT n, $1, 'row ' || n, n FROM generate_series(1, 100) AS n`, [PARAMETERS[1]]);

  const ways = waysOn(dataSource, pool);
  const samples = new Map<string, number[]>(ways.map((way) => [way.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const way of ways) samples.get(way.name)!.push(await cpuPerStatement(way, round === 0 ? 500 : 50));
  }

  const floor = median(samples.get(ways[0].name)!);
  process.stdout.write(`\n${ITERATIONS} statements per way per round, ${ROUNDS} rounds, medians; CPU of this process only\n\n`);
  process.stdout.write('| way | CPU per statement | over pg Pool.query | ratio |\n|---|---:|---:|---:|\n');
  for (const way of ways) {
    const cpu = median(samples.get(way.name)!);
    process.stdout.write(`| ${way.name} | ${cpu.toFixed(1)} µs | ${(cpu - floor).toFixed(1)} µs | ${(cpu / floor).toFixed(2)}x |\n`);
  }
  await dataSource.destroy();
}

/** A way that runs on a connection it holds (as a transaction does), opened on first use and given back after its run. */
function holding(name: string, open: () => Promise<{ once: () => Promise<unknown>; close: () => Promise<void> }>): Way {
  let held: { once: () => Promise<unknown>; close: () => Promise<void> } | undefined;
  return {
    name,
    once: async () => {
      held ??= await open();
      return held.once();
    },
    release: async () => {
      await held?.close();
      held = undefined;
    },
  };
}

/** The ways a statement reaches pg, the floor's first. */
function waysOn(dataSource: DataSource, pool: Pool): Way[] {
  return [
    { name: 'pg Pool.query (the floor)', once: () => pool.query(READ.text, PARAMETERS) },
    { name: 'typed SQL on the DataSource: rows(dataSource, …)', once: () => rows(dataSource, READ, PARAMETERS) },
    { name: 'TypeORM DataSource.query', once: () => dataSource.query(READ.text, PARAMETERS) },
    holding('pg client.query on a held client (a transaction’s)', async () => {
      const client: PoolClient = await pool.connect();
      return { once: () => client.query(READ.text, PARAMETERS), close: async () => client.release() };
    }),
    holding('TypeORM QueryRunner.query on a held runner', async () => {
      const runner: QueryRunner = dataSource.createQueryRunner();
      await runner.connect();
      return { once: () => runner.query(READ.text, PARAMETERS), close: () => runner.release() };
    }),
    holding('TypeORM EntityManager.query in a transaction (the typed SQL’s way before the port)', async () => {
      const runner: QueryRunner = dataSource.createQueryRunner();
      await runner.connect();
      return { once: () => runner.manager.query(READ.text, PARAMETERS), close: () => runner.release() };
    }),
    holding('typed SQL in a transaction, through the port: rows(manager, …)', async () => {
      const runner: QueryRunner = dataSource.createQueryRunner();
      await runner.connect();
      return { once: () => rows(runner.manager, READ, PARAMETERS), close: () => runner.release() };
    }),
  ];
}

async function cpuPerStatement(way: Way, warmUp: number): Promise<number> {
  for (let index = 0; index < warmUp; index += 1) await way.once();
  const before = process.cpuUsage();
  for (let index = 0; index < ITERATIONS; index += 1) await way.once();
  const used = process.cpuUsage(before);
  await way.release?.();
  return (used.user + used.system) / ITERATIONS;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
