import { continueJobFrom, propagatedHeaders, PropagatedHeaders, SpanKind } from '@platform/observability';

/** What every job's data may carry besides its own fields (older jobs carry nothing). */
export interface WithHeaders {
  /** Request id and trace context of the request that enqueued the job. */
  headers?: PropagatedHeaders;
}

/** The job data to send now: `data` plus the request id and trace context of the work enqueueing it. */
export function withPropagatedHeaders<T extends object>(data: T): T & WithHeaders {
  const headers = propagatedHeaders();
  return headers ? { ...data, headers } : data;
}

/**
 * Runs one job under the request id and trace context it carries. Its span
 * is a child (not a link) of the enqueueing request's: one job does the rest
 * of one request's work, so the request's trace shows it, however late.
 */
export function runJobAsPartOfItsRequest<T>(queue: string, data: WithHeaders, work: () => Promise<T>): Promise<T> {
  return continueJobFrom(data.headers, { name: `job ${queue}`, kind: SpanKind.CONSUMER }, work);
}
