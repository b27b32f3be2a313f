import { Inject, Injectable, Logger } from '@nestjs/common';
import { TraceCredentials } from './trace-credentials';
import { InstalledTraceProvider, SourceFailure, TraceCall, TraceProviderFailure } from './trace-provider/trace.provider';
import { TRACE_SETTINGS, TraceSettings } from './trace-settings';

export type FanOutResult<T> = { provider: InstalledTraceProvider } & ({ ok: true; value: T } | { ok: false; failure: SourceFailure });

/**
 * Calls several providers at once, each under its own time limit, and
 * settles with every provider's result: one that fails, hangs or answers
 * garbage never fails the others (docs/processing-traces.md, Fan-out).
 */
@Injectable()
export class TraceFanOut {
  private readonly logger = new Logger(TraceFanOut.name);

  constructor(
    private readonly credentials: TraceCredentials,
    @Inject(TRACE_SETTINGS) private readonly settings: TraceSettings,
  ) {}

  async run<T>(
    tenantID: string,
    sessionID: string,
    providers: InstalledTraceProvider[],
    call: (provider: InstalledTraceProvider, context: TraceCall) => Promise<T>,
  ): Promise<FanOutResult<T>[]> {
    const tokens = await this.credentials.tokensFor(
      tenantID,
      sessionID,
      providers.map((provider) => provider.pluginID),
    );
    const settled = await Promise.allSettled(
      providers.map((provider) => {
        const token = tokens.get(provider.pluginID);
        if (!token) return Promise.reject(new TraceProviderFailure('error', 'no credential for this provider'));
        return call(provider, { tenantID, sessionID, token, signal: AbortSignal.timeout(this.settings.providerTimeoutMs) });
      }),
    );
    return settled.map((result, index): FanOutResult<T> => {
      const provider = providers[index];
      if (result.status === 'fulfilled') return { provider, ok: true, value: result.value };
      const failure = result.reason instanceof TraceProviderFailure ? result.reason.kind : 'error';
      this.logger.warn({ pluginID: provider.pluginID, source: provider.urn, failure, err: result.reason }, 'trace provider failed');
      return { provider, ok: false, failure };
    });
  }
}
