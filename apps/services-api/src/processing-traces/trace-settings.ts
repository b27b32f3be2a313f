/** Settings of operations 9 and 10 (docs/configuration.md). */
export interface TraceSettings {
  /** Time limit of one provider call, answer included. */
  providerTimeoutMs: number;
  /** How long a terminal retrieval is served from the cache. */
  retrievalCacheTtlSeconds: number;
}

export const TRACE_SETTINGS = Symbol('TRACE_SETTINGS');
