import { AsyncLocalStorage } from 'node:async_hooks';

/** The transport request a handler is serving: its id, as signed with the message, and its pattern. */
export interface TransportRequestInScope {
  id: string;
  pattern: string;
}

const scope = new AsyncLocalStorage<TransportRequestInScope>();

/** The transport request being handled now, if the work running is one (not an HTTP request, a job or a sweep). */
export function currentTransportRequest(): TransportRequestInScope | undefined {
  return scope.getStore();
}

/** Runs `work` (and everything it starts) as the handling of `request`. */
export function runInTransportRequest<T>(request: TransportRequestInScope, work: () => T): T {
  return scope.run(request, work);
}

/**
 * Thrown by a handler that finds its request id already recorded as handled
 * in PostgreSQL: the message was published again (its Redis claim deleted),
 * and it changes nothing. The transport's error filter answers it refused.
 */
export class ReplayedTransportRequest extends Error {
  constructor(readonly request: TransportRequestInScope) {
    super(`transport request ${request.id} (${request.pattern}) was handled already`);
    this.name = 'ReplayedTransportRequest';
  }
}
