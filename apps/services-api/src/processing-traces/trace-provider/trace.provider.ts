import { ReadTrace, SessionTraceList } from './trace-protocol';

/** A plugin installed on the tenant that declares a processing-trace endpoint. */
export interface InstalledTraceProvider {
  pluginID: string;
  /** The plugin's URN: the `source` of its traces in operations 9 and 10, and the `aud` of its credential. */
  urn: string;
  name: string;
  iconUrl: string | null;
  endpointUrl: string;
}

/** What one call to a provider is about, and the credential that says so. */
export interface TraceCall {
  tenantID: string;
  sessionID: string;
  /** The short-lived JWT from core-tenants (docs/processing-traces.md, credentials). */
  token: string;
  signal: AbortSignal;
}

/** How a provider call failed, as reported in `sources[].status`. */
export const SOURCE_FAILURES = ['timeout', 'unreachable', 'error', 'invalid_response'] as const;
export type SourceFailure = (typeof SOURCE_FAILURES)[number];

export class TraceProviderFailure extends Error {
  constructor(
    readonly kind: SourceFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The two calls of the provider protocol. Implementations reject only with
 * TraceProviderFailure; the fan-out turns it into the source's status.
 */
export abstract class TraceProvider {
  /** The traced messages of the session at this provider. */
  abstract list(provider: InstalledTraceProvider, call: TraceCall): Promise<SessionTraceList>;

  /** The steps of the given traces; one entry per requested ref (a ref the provider leaves out counts as not found). */
  abstract read(provider: InstalledTraceProvider, call: TraceCall, traceRefs: string[]): Promise<ReadTrace[]>;
}
