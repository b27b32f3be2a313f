import Redis from 'ioredis';
import { Client } from 'pg';

/** Running totals, read before and after a load; their difference over the requests is a request's footprint. */
export interface FootprintCounters {
  /** Transactions PgBouncer gave a server connection to (a statement outside a transaction is one). */
  transactions: number;
  /** Statements sent to PostgreSQL, BEGIN and COMMIT included. */
  queries: number;
  /** Time server connections spent in those transactions, in µs: how long a request holds one. */
  transactionMicroseconds: number;
  /** Redis commands of every client (INFO excluded): Redis server throughput per request. */
  redisCommands: number;
  /** PUBLISH commands: the transport's messages (a request and its reply are one each). */
  transportMessages: number;
}

export interface Footprint {
  transactions: number;
  queries: number;
  /** Server-connection time per request, in ms. */
  transactionMs: number;
  redisCommands: number;
  transportMessages: number;
}

/**
 * Reads the counters a request's footprint comes from: PgBouncer's SHOW STATS
 * for the apps' database (they reach PostgreSQL through it, as in production)
 * and Redis's INFO commandstats. Redis counts every client of the server, so
 * run the benchmark on a Redis server of its own for exact figures.
 */
export class FootprintMeter {
  private constructor(
    private readonly stats: Client,
    private readonly redis: Redis,
    private readonly database: string,
  ) {}

  static async open(poolerUrl: string, redisUrl: string, database: string): Promise<FootprintMeter> {
    const admin = new URL(poolerUrl);
    admin.pathname = '/pgbouncer';
    const stats = new Client({ connectionString: admin.toString() });
    await stats.connect();
    return new FootprintMeter(stats, new Redis(redisUrl, { lazyConnect: false }), database);
  }

  async read(): Promise<FootprintCounters> {
    const rows: Record<string, string>[] = (await this.stats.query('SHOW STATS')).rows;
    const pool = rows.find((row) => row.database === this.database);
    const calls = commandCalls(await this.redis.info('commandstats'));
    return {
      transactions: Number(pool?.total_xact_count ?? 0),
      queries: Number(pool?.total_query_count ?? 0),
      transactionMicroseconds: Number(pool?.total_xact_time ?? 0),
      redisCommands: [...calls].filter(([command]) => command !== 'info').reduce((sum, [, count]) => sum + count, 0),
      transportMessages: calls.get('publish') ?? 0,
    };
  }

  async close(): Promise<void> {
    await this.stats.end();
    this.redis.disconnect();
  }
}

export function footprintPerRequest(before: FootprintCounters, after: FootprintCounters, requests: number): Footprint {
  const per = (key: keyof FootprintCounters) => (after[key] - before[key]) / requests;
  return {
    transactions: per('transactions'),
    queries: per('queries'),
    transactionMs: per('transactionMicroseconds') / 1_000,
    redisCommands: per('redisCommands'),
    transportMessages: per('transportMessages'),
  };
}

/** `cmdstat_get:calls=12,usec=...` lines of INFO commandstats, by command. */
function commandCalls(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1], Number(match[2]));
  return calls;
}
