import { OutboundHttp } from '@platform/http-outbound';
import { performance } from 'node:perf_hooks';

/** What one attempt came to: what the log records. */
export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  /** Why it failed, in a few words; null on success. Never the receiver's body. */
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one signed delivery through the outbound policy (public addresses
 * only, plus OUTBOUND_ALLOW; docs/security.md, Outbound calls), within the
 * attempt's time limit, following no redirect. Any 2xx is a success. The
 * receiver's body is never read: the log keeps the status code alone.
 */
export class WebhookSender {
  constructor(
    private readonly http: OutboundHttp,
    private readonly timeoutMs: number,
  ) {}

  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const startedAt = performance.now();
    const duration = () => Math.round(performance.now() - startedAt);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.http.fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
      await response.body?.cancel().catch(() => undefined);
      const succeeded = response.status >= 200 && response.status < 300;
      return { succeeded, statusCode: response.status, error: succeeded ? null : `answered ${response.status}`, durationMs: duration() };
    } catch {
      // A refused destination reads like a closed port or an unknown name: the log maps no network (docs/security.md).
      const error = signal.aborted ? `no answer within ${this.timeoutMs} ms` : 'unreachable';
      return { succeeded: false, statusCode: null, error, durationMs: duration() };
    }
  }
}
