import { RetrievalResponse, RetrievalStatus, TraceDetailDto, TraceSourceDto, TraceStepDto } from './processing-traces.dto';
import { compareText } from './condense-discovery';
import { combineProcessStatuses } from './process-status';
import { ProcessStatus, ReadTrace } from './trace-provider/trace-protocol';
import { InstalledTraceProvider, SourceFailure } from './trace-provider/trace.provider';

export interface RequestedTrace {
  source: string;
  traceRef: string;
}

/** What reading one requested trace came to. */
export type TraceOutcome =
  | { status: 'ready' | 'pending'; trace: ReadTrace & { processStatus: ProcessStatus; startedAt: string; durationMs: number } }
  | { status: 'not_found' | 'expired' }
  | { status: SourceFailure };

type UsableOutcome = Extract<TraceOutcome, { trace: unknown }>;

export const traceKey = (trace: RequestedTrace) => `${trace.source}\u0000${trace.traceRef}`;

/** The requested traces without repeats, in the order first asked for. */
export function distinctTraces(traces: RequestedTrace[]): RequestedTrace[] {
  const seen = new Map<string, RequestedTrace>();
  for (const trace of traces) if (!seen.has(traceKey(trace))) seen.set(traceKey(trace), { source: trace.source, traceRef: trace.traceRef });
  return [...seen.values()];
}

/**
 * A trace as its provider read it, as an outcome: a trace whose processing
 * still runs is `pending` whatever the provider called it, and a `pending`
 * one is running (docs/processing-traces.md, statuses).
 */
export function outcomeOf(trace: ReadTrace | undefined): TraceOutcome {
  if (!trace) return { status: 'not_found' };
  if (trace.status === 'not_found' || trace.status === 'expired') return { status: trace.status };
  const pending = trace.status === 'pending' || trace.processStatus === 'running';
  return {
    status: pending ? 'pending' : 'ready',
    trace: { ...trace, processStatus: pending ? 'running' : trace.processStatus!, startedAt: trace.startedAt!, durationMs: trace.durationMs! },
  };
}

const isUsable = (outcome: TraceOutcome): outcome is UsableOutcome => outcome.status === 'ready' || outcome.status === 'pending';
const isGone = (outcome: TraceOutcome) => outcome.status === 'not_found' || outcome.status === 'expired';

/**
 * Whether a retrieval may be cached: every trace is finished (`ready`, not
 * running) or `expired`, so reading it again would answer the same.
 */
export function isTerminal(outcomes: TraceOutcome[]): boolean {
  return outcomes.length > 0 && outcomes.every((outcome) => outcome.status === 'ready' || outcome.status === 'expired');
}

/** docs/processing-traces.md, retrieval status. */
export function retrievalStatusOf(outcomes: TraceOutcome[]): RetrievalStatus {
  const usable = outcomes.filter(isUsable);
  if (usable.length === 0) {
    if (outcomes.some((outcome) => !isGone(outcome))) return 'error';
    return outcomes.some((outcome) => outcome.status === 'expired') ? 'expired' : 'not_found';
  }
  if (usable.length < outcomes.length) return 'partial';
  return usable.some((outcome) => outcome.status === 'pending') ? 'pending' : 'ready';
}

/** docs/processing-traces.md, processStatus: from the traces read; `failed` when none could be read. */
export function processStatusOf(outcomes: TraceOutcome[]): ProcessStatus {
  return combineProcessStatuses(outcomes.filter(isUsable).map((outcome) => outcome.trace.processStatus)) ?? 'failed';
}

interface SortableStep {
  step: TraceStepDto;
  traceRef: string;
  index: number;
}

/** Sorted by start; ties by source, then traceRef, then the provider's own order: a total order. */
function byStart(left: SortableStep, right: SortableStep): number {
  return (
    Date.parse(left.step.startedAt) - Date.parse(right.step.startedAt) ||
    compareText(left.step.source, right.step.source) ||
    compareText(left.traceRef, right.traceRef) ||
    left.index - right.index
  );
}

/**
 * Operation 10's answer: the requested traces (distinct, request order),
 * what reading each came to, and the providers installed on the tenant now
 * (a trace of a source that is not one of them is `not_found`).
 */
export function composeRetrieval(
  requested: RequestedTrace[],
  outcomes: ReadonlyMap<string, TraceOutcome>,
  providers: ReadonlyMap<string, InstalledTraceProvider>,
): RetrievalResponse {
  const resolved = requested.map((trace) => {
    const provider = providers.get(trace.source);
    const outcome: TraceOutcome = provider ? (outcomes.get(traceKey(trace)) ?? { status: 'not_found' }) : { status: 'not_found' };
    return { trace, provider, outcome };
  });

  const sources: TraceSourceDto[] = resolved.map(({ trace, provider, outcome }) => ({
    source: trace.source,
    name: provider?.name ?? '',
    status: outcome.status,
    traceRef: trace.traceRef,
  }));

  const steps: SortableStep[] = [];
  const details: TraceDetailDto[] = [];
  let start = Infinity;
  let end = -Infinity;
  for (const { trace, provider, outcome } of resolved) {
    if (!provider || !isUsable(outcome)) continue;
    const traceStart = Date.parse(outcome.trace.startedAt);
    start = Math.min(start, traceStart);
    end = Math.max(end, traceStart + outcome.trace.durationMs);
    const plugin = { pluginIcon: provider.iconUrl ?? '', pluginName: provider.name, pluginURN: provider.urn };
    outcome.trace.steps.forEach((step, index) => {
      steps.push({
        traceRef: trace.traceRef,
        index,
        step: { ...step, plugin, pluginURN: provider.urn, source: provider.urn, sourceIcon: provider.iconUrl ?? '', sourceName: provider.name },
      });
    });
    for (const detail of outcome.trace.details) details.push({ ...detail, source: provider.urn, sourceName: provider.name });
  }
  steps.sort(byStart);

  const all = resolved.map(({ outcome }) => outcome);
  const anyRead = Number.isFinite(start);
  return {
    details,
    durationMs: anyRead ? end - start : 0,
    processStatus: processStatusOf(all),
    sources,
    startedAt: anyRead ? new Date(start).toISOString() : null,
    status: retrievalStatusOf(all),
    stepCount: steps.length,
    steps: steps.map((entry) => entry.step),
    version: 1,
  };
}
