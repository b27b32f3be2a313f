import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id of the work running now: an HTTP request, a transport
 * message or a job. It follows the work across `await`s, so the code that
 * sends a message or enqueues a job can pass it on without every caller
 * handing it down.
 */
const scope = new AsyncLocalStorage<string>();

export function currentRequestId(): string | undefined {
  return scope.getStore();
}

/** Runs `work` (and everything it starts) under `requestId`. */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return scope.run(requestId, work);
}

/** Runs `work` (and everything it starts) under no request id. */
export function runOutsideRequest<T>(work: () => T): T {
  return scope.exit(work);
}
