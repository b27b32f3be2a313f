import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { RequestedTrace, TraceOutcome, traceKey } from './compose-retrieval';
import { TRACE_SETTINGS, TraceSettings } from './trace-settings';

/**
 * Terminal retrievals in Redis (docs/processing-traces.md, cache), keyed by
 * tenant, session and the set of traces (order and repeats do not matter).
 * What is kept is each trace's outcome as read from its provider, not the
 * answer: the plugin annotation and whether the source is still installed
 * are applied afresh on every read.
 */
@Injectable()
export class RetrievalCache {
  private readonly logger = new Logger(RetrievalCache.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(TRACE_SETTINGS) private readonly settings: TraceSettings,
  ) {}

  static keyOf(tenantID: string, sessionID: string, traces: RequestedTrace[]): string {
    const set = [...new Set(traces.map(traceKey))].sort();
    const digest = createHash('sha256').update(JSON.stringify(set)).digest('base64url');
    return `traces:v1:retrieval:${tenantID}:${sessionID}:${digest}`;
  }

  async get(key: string): Promise<Map<string, TraceOutcome> | undefined> {
    const cached = await this.redis.get(key).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'retrieval cache unavailable');
      return null;
    });
    return cached ? new Map(JSON.parse(cached) as [string, TraceOutcome][]) : undefined;
  }

  async put(key: string, outcomes: Map<string, TraceOutcome>): Promise<void> {
    await this.redis
      .set(key, JSON.stringify([...outcomes]), 'EX', this.settings.retrievalCacheTtlSeconds)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'retrieval cache unavailable'));
  }
}
