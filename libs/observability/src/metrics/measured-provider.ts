import type { PlatformMetrics, ProviderOutcome } from './platform-metrics';

export interface MeasuredProviderOptions<T> {
  /**
   * For adapters that answer a failure instead of throwing it (e.g. a
   * submission that came back "unavailable"): whether this result is one.
   */
  failedResult?: (operation: string, result: unknown) => boolean;
  /** The adapter's methods that call the provider (async ones); other members pass through untouched. */
  operations: readonly (keyof T & string)[];
}

/**
 * The adapter of an external provider, with every call to it observed in
 * `platform_provider_call_duration_seconds{provider, operation, outcome}`:
 * one wrapper where the adapter is created, instead of timing code in each
 * adapter. `operation` is the method's name (a fixed set); `outcome` is
 * `error` when the call threw (the adapters throw only for failures: a
 * provider's "not found" or "duplicate" they handle themselves are answers)
 * or when `failedResult` says so.
 */
export function measuredProvider<T extends object>(provider: string, adapter: T, metrics: PlatformMetrics, options: MeasuredProviderOptions<T>): T {
  const measured = new Set<string>(options.operations);
  const wrappers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function' || !measured.has(property)) return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        const method = value as (...args: unknown[]) => Promise<unknown>;
        wrapper = async (...args: unknown[]) => {
          const startedAt = performance.now();
          let outcome: ProviderOutcome = 'error';
          try {
            const result = await method.apply(target, args);
            if (!options.failedResult?.(property, result)) outcome = 'ok';
            return result;
          } finally {
            metrics.providerCallEnded(provider, property, outcome, startedAt);
          }
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
