import { DiscoveryResponse, TracedMessageDto, TraceSourceDto } from './processing-traces.dto';
import { combineProcessStatuses } from './process-status';
import { ListedTrace, SessionTraceList } from './trace-provider/trace-protocol';
import { InstalledTraceProvider, SourceFailure } from './trace-provider/trace.provider';

/** What one provider's list call came to. */
export type ProviderListing = { provider: InstalledTraceProvider } & ({ ok: true; list: SessionTraceList } | { ok: false; failure: SourceFailure });

interface SourcedTrace extends ListedTrace {
  source: string;
}

const startMs = (trace: { startedAt: string }) => Date.parse(trace.startedAt);

/** Traces of one message, earliest first; ties by source, then traceRef (a total order). */
function byStart(left: SourcedTrace, right: SourcedTrace): number {
  return startMs(left) - startMs(right) || compareText(left.source, right.source) || compareText(left.traceRef, right.traceRef);
}

export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function condenseMessage(messageID: string, traces: SourcedTrace[]): TracedMessageDto {
  traces.sort(byStart);
  const start = startMs(traces[0]);
  const end = Math.max(...traces.map((trace) => startMs(trace) + trace.durationMs));
  return {
    messageID,
    messageFingerprint: traces.find((trace) => trace.messageFingerprint !== '')?.messageFingerprint ?? '',
    startedAt: traces[0].startedAt,
    durationMs: end - start,
    status: combineProcessStatuses(traces.map((trace) => trace.status)) ?? 'succeeded',
    stepCount: traces.reduce((sum, trace) => sum + trace.stepCount, 0),
    traces: traces.map((trace) => ({ source: trace.source, traceRef: trace.traceRef })),
  };
}

/**
 * Operation 9's answer from every provider's listing (docs/processing-traces.md,
 * condensation): one entry per message of the session that some provider
 * traced, in the session's message order (`sessionMessageOrder`: the ids of
 * the listed messages that belong to the session, oldest first; others are
 * dropped), and one `sources` entry per provider, ordered by source.
 */
export function condenseDiscovery(listings: ProviderListing[], sessionMessageOrder: string[]): DiscoveryResponse {
  const byMessage = new Map<string, Map<string, SourcedTrace>>(sessionMessageOrder.map((id) => [id, new Map()]));
  for (const listing of listings) {
    if (!listing.ok) continue;
    for (const trace of listing.list.messages) {
      // The same trace listed twice by one provider counts once.
      byMessage.get(trace.messageID)?.set(`${listing.provider.urn}\u0000${trace.traceRef}`, { ...trace, source: listing.provider.urn });
    }
  }
  const messages: TracedMessageDto[] = [];
  for (const [messageID, traces] of byMessage) if (traces.size > 0) messages.push(condenseMessage(messageID, [...traces.values()]));

  const sources: TraceSourceDto[] = [...listings]
    .sort((left, right) => compareText(left.provider.urn, right.provider.urn))
    .map((listing) => ({
      source: listing.provider.urn,
      name: listing.provider.name,
      status: listing.ok ? 'ready' : listing.failure,
      traceRef: listing.ok ? (listing.list.sessionTraceRef ?? '') : '',
    }));
  return { messages, sources, version: 1 };
}

/** Every message id some provider listed (what the session's messages are checked against). */
export function listedMessageIDs(listings: ProviderListing[]): string[] {
  const ids = new Set<string>();
  for (const listing of listings) if (listing.ok) for (const trace of listing.list.messages) ids.add(trace.messageID);
  return [...ids];
}
