/**
 * The processing-trace provider protocol as services-api reads it
 * (docs/protocols/processing-traces.openapi.yaml): what a provider's two calls
 * answer, after validation and normalisation (times as ISO strings in UTC).
 */

export const PROCESS_STATUSES = ['succeeded', 'failed', 'stopped', 'running'] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

/** Status of one trace as its provider reports it on read. */
export const PROVIDER_TRACE_STATUSES = ['ready', 'pending', 'not_found', 'expired'] as const;
export type ProviderTraceStatus = (typeof PROVIDER_TRACE_STATUSES)[number];

/** One processing of one message at one provider, as listed by the list call. */
export interface ListedTrace {
  messageID: string;
  messageFingerprint: string;
  traceRef: string;
  startedAt: string;
  durationMs: number;
  status: ProcessStatus;
  stepCount: number;
}

export interface SessionTraceList {
  /** The provider's own reference of the session's traces, if it has one. */
  sessionTraceRef?: string;
  messages: ListedTrace[];
}

export interface ProviderDetail {
  kind: string;
  label: string;
  value: string;
  truncated: boolean;
}

export interface ProviderMetric {
  label: string;
  value: string;
}

export interface ProviderStep {
  stepID: string;
  title: string;
  category: string;
  status: string;
  startedAt: string;
  durationMs: number;
  subtitle?: string;
  error?: string;
  highlight?: string;
  details: ProviderDetail[];
  metrics: ProviderMetric[];
}

/** One trace as read by the read call. */
export interface ReadTrace {
  traceRef: string;
  status: ProviderTraceStatus;
  processStatus?: ProcessStatus;
  startedAt?: string;
  durationMs?: number;
  steps: ProviderStep[];
  details: ProviderDetail[];
}

/** Caps of one answer: beyond them the answer is garbage (`invalid_response`). */
export const PROTOCOL_LIMITS = {
  messages: 1_000,
  steps: 500,
  details: 50,
  metrics: 20,
  /** Detail values longer than this many characters are cut, with `truncated: true`. */
  detailValueChars: 2_000,
} as const;
