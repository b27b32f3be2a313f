import { connect } from 'node:net';
import { parseRedisClusterNodes } from './redis-cluster';

/** A server the platform needs, as configured. */
export interface Dependency {
  /** What it is, for people: `PostgreSQL`, `Redis`. */
  name: string;
  /** The variable that configures it. */
  variable: string;
  url: string;
  defaultPort: number;
}

/** Thrown when a configured PostgreSQL or Redis does not accept connections: one line that says what to do. */
export class DependencyUnreachableError extends Error {
  constructor(
    readonly dependency: Dependency,
    readonly address: string,
    reason: string,
  ) {
    super(
      `${dependency.name} at ${address} (${dependency.variable}) cannot be reached: ${reason}. ` +
        `Start it or correct ${dependency.variable}; or leave DATABASE_URL and REDIS_URL unset and run \`npm start\`, ` +
        'which then runs an embedded PostgreSQL and an in-memory Redis-compatible server (docs/quick-start.md).',
    );
    this.name = 'DependencyUnreachableError';
  }
}

export function postgresDependency(url: string): Dependency {
  return { name: 'PostgreSQL', variable: 'DATABASE_URL', url, defaultPort: 5432 };
}

export function redisDependency(url: string): Dependency {
  return { name: 'Redis', variable: 'REDIS_URL', url, defaultPort: 6379 };
}

function tryConnect(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    const done = (reason?: string) => {
      socket.destroy();
      resolve(reason);
    };
    socket.once('connect', () => done());
    socket.once('timeout', () => done(`no answer within ${timeoutMs} ms`));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/**
 * Waits up to `waitMs` for each dependency to accept a TCP connection, so an
 * app whose database is missing stops at once with a line naming the
 * variable, instead of a driver's retries and stack traces. Only the first
 * start is checked: later outages are handled while running (503 5903,
 * readiness, reconnection).
 */
export async function ensureReachable(dependencies: Dependency[], waitMs = 5_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (const dependency of dependencies) {
    const url = new URL(dependency.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = url.port ? Number(url.port) : dependency.defaultPort;
    for (;;) {
      const reason = await tryConnect(host, port, 2_000);
      if (reason === undefined) break;
      if (Date.now() >= deadline) throw new DependencyUnreachableError(dependency, `${url.hostname}:${port}`, reason);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The PostgreSQL and Redis every app needs; on a cluster, its first seed stands for Redis. */
export function platformDependencies(config: { DATABASE_URL: string; REDIS_URL: string; REDIS_CLUSTER_NODES?: string }): Dependency[] {
  const seed = config.REDIS_CLUSTER_NODES ? parseRedisClusterNodes(config.REDIS_CLUSTER_NODES)?.[0] : undefined;
  const redis = seed
    ? { name: 'Redis Cluster', variable: 'REDIS_CLUSTER_NODES', url: `redis://${seed.host.includes(':') ? `[${seed.host}]` : seed.host}:${seed.port}`, defaultPort: 6379 }
    : redisDependency(config.REDIS_URL);
  return [postgresDependency(config.DATABASE_URL), redis];
}
