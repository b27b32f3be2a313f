import { Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric of ours starts with this; Node's process metrics keep their usual names. */
export const METRIC_PREFIX = 'platform_';

/** Seconds: from a fast cached read to a request near the 30 s request timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** How a transport request ended (docs/deployment.md, Metrics). */
export type TransportOutcome = 'reply' | 'error_reply' | 'timeout' | 'failure';

/** How a call to an external provider ended: `error` when the adapter reported a failure. */
export type ProviderOutcome = 'ok' | 'error';

/** The connection counts of a node-postgres pool (`pg.Pool` has them), read without a query. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** A gauge whose values are read when Prometheus scrapes, not kept up to date by the code it describes. */
export interface ScrapeGauge<Label extends string> {
  name: string;
  help: string;
  labelNames: readonly Label[];
  /** The current values; an absent label set is left out of the scrape. Rejecting leaves the whole gauge out. */
  read(): Promise<{ labels: Record<Label, string>; value: number }[]> | { labels: Record<Label, string>; value: number }[];
}

/**
 * The metrics of one app: one prom-client registry per app instance (the
 * end-to-end tests run three apps in one process, and each must show only
 * its own), with Node's process metrics, every series labelled with `app`.
 *
 * Instruments updated on the request path are created here once; gauges
 * that need a look at PostgreSQL or a pool are read at scrape time
 * (`addScrapeGauge`), so serving requests never pays for them.
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');

  /** One observation per HTTP answer, by method, route template and status; `_count` is the request count. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly transportRequestDuration: Histogram<'pattern' | 'outcome'>;
  readonly providerCallDuration: Histogram<'provider' | 'operation' | 'outcome'>;
  readonly rateLimitRefusals: Counter<'limit'>;
  readonly transportMessagesRefused: Counter<'direction' | 'reason'>;
  readonly cacheEntriesRefused: Counter<'cache'>;
  readonly credentialLookups: Counter<'credential' | 'source'>;
  /** PostgreSQL pools by name; a pool not created yet answers undefined. */
  private readonly databasePools = new Map<string, () => PoolCounts | undefined>();

  constructor(readonly app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.httpRequestDuration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from receiving an HTTP request to its answer, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.transportRequestDuration = new Histogram({
      name: `${METRIC_PREFIX}transport_request_duration_seconds`,
      help: 'Time of a request to another app over the transport, by message pattern and outcome (reply, error_reply, timeout, failure).',
      labelNames: ['pattern', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.providerCallDuration = new Histogram({
      name: `${METRIC_PREFIX}provider_call_duration_seconds`,
      help: 'Time of a call to an external provider, by provider, operation and outcome (ok, error).',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.rateLimitRefusals = new Counter({
      name: `${METRIC_PREFIX}rate_limit_refusals_total`,
      help: 'Requests refused by a rate limit or throttle (answered 429), by limit.',
      labelNames: ['limit'],
      registers,
    });
    this.transportMessagesRefused = new Counter({
      name: `${METRIC_PREFIX}transport_messages_refused_total`,
      help: 'Transport messages dropped unread: unsigned, wrongly signed, stale or misrouted, by direction (request, reply) and reason.',
      labelNames: ['direction', 'reason'],
      registers,
    });
    this.cacheEntriesRefused = new Counter({
      name: `${METRIC_PREFIX}cache_entries_refused_total`,
      help: 'Redis cache entries whose MAC did not verify (forged, moved to another key, or sealed with a retired secret), read through to PostgreSQL instead, by cache.',
      labelNames: ['cache'],
      registers,
    });
    this.credentialLookups = new Counter({
      name: `${METRIC_PREFIX}credential_lookups_total`,
      help: 'Plugin and plugin-connection credentials looked up, by credential (plugin, connection) and by what answered (cache: Redis or in-process; postgresql: a query).',
      labelNames: ['credential', 'source'],
      registers,
    });
    this.addScrapeGauge({
      name: 'db_pool_connections_in_use',
      help: 'PostgreSQL connections of the pool checked out by a query or transaction, by pool.',
      labelNames: ['pool'],
      read: () => this.poolReadings((counts) => counts.totalCount - counts.idleCount),
    });
    this.addScrapeGauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries or transactions waiting for a free connection of the pool, by pool.',
      labelNames: ['pool'],
      read: () => this.poolReadings((counts) => counts.waitingCount),
    });
  }

  /**
   * Adds a PostgreSQL pool to `platform_db_pool_connections_in_use` and
   * `platform_db_pool_waiting_requests` (label `pool`), read from the pool's
   * own counters at scrape time.
   */
  addDatabasePool(pool: string, countsOf: () => PoolCounts | undefined): void {
    this.databasePools.set(pool, countsOf);
  }

  /** Counts one request refused by the named limit or throttle. */
  refused(limit: string): void {
    this.rateLimitRefusals.inc({ limit });
  }

  /** Counts one transport message dropped before it was read (docs/transport.md, Authenticated messages). */
  transportMessageRefused(direction: string, reason: string): void {
    this.transportMessagesRefused.inc({ direction, reason });
  }

  /** Counts one cache entry refused because its MAC did not verify. */
  cacheEntryRefused(cache: string): void {
    this.cacheEntriesRefused.inc({ cache });
  }

  /** Counts one credential lookup, by what answered it. */
  credentialLookup(credential: string, source: string): void {
    this.credentialLookups.inc({ credential, source });
  }

  /** Observes a transport request that started at `startedAt` (`performance.now()`). */
  transportRequestEnded(pattern: string, outcome: TransportOutcome, startedAt: number): void {
    this.transportRequestDuration.observe({ pattern, outcome }, secondsSince(startedAt));
  }

  /** Observes a provider call that started at `startedAt` (`performance.now()`). */
  providerCallEnded(provider: string, operation: string, outcome: ProviderOutcome, startedAt: number): void {
    this.providerCallDuration.observe({ provider, operation, outcome }, secondsSince(startedAt));
  }

  addScrapeGauge<Label extends string>(definition: ScrapeGauge<Label>): void {
    const logger = this.logger;
    new Gauge<Label>({
      name: `${METRIC_PREFIX}${definition.name}`,
      help: definition.help,
      labelNames: definition.labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await definition.read()) this.set(labels as Partial<Record<Label, string>>, value);
        } catch (error) {
          // The rest of the scrape still answers; this gauge is absent from it, which alerts can see.
          this.reset();
          logger.warn({ err: error, metric: definition.name }, 'metric not read for this scrape');
        }
      },
    });
  }

  /** The scrape's body, in the Prometheus text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private poolReadings(valueOf: (counts: PoolCounts) => number): { labels: { pool: string }; value: number }[] {
    return [...this.databasePools].flatMap(([pool, countsOf]) => {
      const counts = countsOf();
      return counts ? [{ labels: { pool }, value: valueOf(counts) }] : [];
    });
  }
}

function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}
