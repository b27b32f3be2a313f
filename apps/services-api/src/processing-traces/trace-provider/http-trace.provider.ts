import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '@platform/http-outbound';
import type { Response } from 'undici';
import { InvalidProviderAnswer, parseReadTraces, parseSessionTraceList } from './trace-protocol.parser';
import { ReadTrace, SessionTraceList } from './trace-protocol';
import { InstalledTraceProvider, TraceCall, TraceProvider, TraceProviderFailure } from './trace.provider';

/** Largest answer read from a provider; a longer one is garbage (`invalid_response`). */
export const MAX_PROVIDER_ANSWER_BYTES = 2 * 1024 * 1024;

type Exchange = { kind: 'missing' } | { kind: 'answer'; body: unknown };

/**
 * The real adapter: the protocol over HTTP with fetch (undici keeps
 * connections to each provider alive). The endpoint comes from data (the
 * plugin), so the call goes through OutboundHttp: public addresses only,
 * checked when connecting. The call's AbortSignal bounds the whole exchange,
 * body included; what goes wrong becomes the source status.
 */
@Injectable()
export class HttpTraceProvider extends TraceProvider {
  constructor(private readonly outbound: OutboundHttp) {
    super();
  }

  async list(provider: InstalledTraceProvider, call: TraceCall): Promise<SessionTraceList> {
    const answer = await this.exchange(provider, call, 'GET', 'traces');
    if (answer.kind === 'missing') return { messages: [] };
    return this.parse(() => parseSessionTraceList(answer.body));
  }

  async read(provider: InstalledTraceProvider, call: TraceCall, traceRefs: string[]): Promise<ReadTrace[]> {
    const answer = await this.exchange(provider, call, 'POST', 'traces/read', { traceRefs });
    if (answer.kind === 'missing') return traceRefs.map((traceRef) => ({ traceRef, status: 'not_found', steps: [], details: [] }));
    return this.parse(() => parseReadTraces(answer.body));
  }

  private urlOf(provider: InstalledTraceProvider, call: TraceCall, path: string): string {
    const base = provider.endpointUrl.replace(/\/+$/, '');
    return `${base}/tenants/${encodeURIComponent(call.tenantID)}/sessions/${encodeURIComponent(call.sessionID)}/${path}`;
  }

  private parse<T>(parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (error instanceof InvalidProviderAnswer) throw new TraceProviderFailure('invalid_response', `answer does not follow the protocol: ${error.message}`);
      throw error;
    }
  }

  /** One request; a 404 is "the provider knows nothing of this session" (protocol), any other non-2xx an error. */
  private async exchange(
    provider: InstalledTraceProvider,
    call: TraceCall,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<Exchange> {
    try {
      const response = await this.outbound.fetch(this.urlOf(provider, call, path), {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${call.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: call.signal,
        redirect: 'error',
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return { kind: 'missing' };
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new TraceProviderFailure('error', `answered HTTP ${response.status}`);
      }
      const text = await readLimited(response, MAX_PROVIDER_ANSWER_BYTES);
      try {
        return { kind: 'answer', body: JSON.parse(text) };
      } catch (error) {
        throw new TraceProviderFailure('invalid_response', 'answer is not JSON', { cause: error });
      }
    } catch (error) {
      throw failureOf(error, call.signal);
    }
  }
}

async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel();
    throw new TraceProviderFailure('invalid_response', `answer larger than ${limit} bytes`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) throw new TraceProviderFailure('invalid_response', `answer larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failureOf(error: unknown, signal: AbortSignal): TraceProviderFailure {
  if (error instanceof TraceProviderFailure) return error;
  if (signal.aborted) return new TraceProviderFailure('timeout', 'no answer within the time limit', { cause: error });
  // fetch rejects with a TypeError for network failures: refused, reset, DNS, TLS, and a destination the
  // outbound policy refuses (OutboundRefused): one status for all, so that it tells a private address from
  // neither a closed port nor an unknown name (no map of the network behind the platform).
  return new TraceProviderFailure('unreachable', `could not be reached: ${(error as Error)?.cause ?? error}`, { cause: error });
}
