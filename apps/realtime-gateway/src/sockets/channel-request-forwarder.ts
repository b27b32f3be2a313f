import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppException, ErrorBody, toAppException } from '@platform/errors';
import { ChannelRequestFrame, restRequestOf } from './channel-requests';
import { Subscriber } from './subscriber';

export const FORWARD_SETTINGS = Symbol('FORWARD_SETTINGS');

/** Where and how requests over the socket reach services-api (docs/realtime.md#limits). */
export interface ForwardSettings {
  /** services-api's base URL (SERVICES_API_URL), without a trailing slash. */
  servicesApiUrl: string;
  timeoutMs: number;
  maxInFlight: number;
}

/**
 * Answers a plugin connection's requests over its socket by making the REST
 * call each stands for on services-api, with the credential the connection
 * presented at the upgrade: services-api's controllers, validation, request
 * budgets, idempotency and error envelope apply exactly as over REST, and
 * stay the one place those rules live. The answer goes back as a `result`
 * frame (the REST status and `data`) or an `error` frame (the envelope's
 * error), each with the client's requestID. Whatever happens (services-api
 * away, slow, answering nonsense), the client gets an error frame and the
 * socket stays open.
 */
@Injectable()
export class ChannelRequestForwarder {
  private readonly logger = new Logger(ChannelRequestForwarder.name);
  private readonly inFlight = new WeakMap<Subscriber, number>();

  constructor(@Inject(FORWARD_SETTINGS) private readonly settings: ForwardSettings) {}

  /** Never rejects: every outcome is a frame to the client. */
  async handle(subscriber: Subscriber, request: ChannelRequestFrame): Promise<void> {
    const { requestID } = request;
    const count = this.inFlight.get(subscriber) ?? 0;
    try {
      // Only a connection posts to its inboxes; a plugin's or an operator's socket holds no credential to forward.
      const credential = subscriber.identity.forwardedCredential;
      if (credential === undefined) throw new AppException('Forbidden');
      if (count >= this.settings.maxInFlight) throw new AppException('TooManyRequests', { retryAfterSeconds: 1 });
      const rest = restRequestOf(request, subscriber.identity.tenantID);
      this.inFlight.set(subscriber, count + 1);
      try {
        const answer = await this.call(rest.method, rest.path, rest.body, credential);
        subscriber.send('error' in answer ? { type: 'error', requestID, error: answer.error } : { type: 'result', requestID, status: answer.status, data: answer.data });
      } finally {
        this.release(subscriber);
      }
    } catch (error) {
      const refusal = toAppException(error);
      if (!refusal) this.logger.error({ err: error }, 'socket request failed');
      subscriber.send({ type: 'error', requestID, error: (refusal ?? new AppException('Unknown')).toBody() });
    }
  }

  private release(subscriber: Subscriber): void {
    const count = (this.inFlight.get(subscriber) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(subscriber);
    else this.inFlight.set(subscriber, count);
  }

  /**
   * One REST call. services-api's envelope is passed on as it is; what is
   * not an answer of services-api (no connection, no answer in time, a body
   * that is not its JSON: a proxy's page) is 503 5903 or 504 5904. No
   * redirect is followed: the credential goes to SERVICES_API_URL only.
   */
  private async call(method: string, path: string, body: unknown, credential: string): Promise<{ status: number; data: unknown } | { error: ErrorBody }> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.settings.servicesApiUrl}${path}`, {
        method,
        headers: { authorization: credential, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      // The credential is in the request, never in what is logged: the error's message and code only.
      this.logger.warn({ reason: describe(error), timedOut: signal.aborted }, 'services-api did not answer a socket request');
      return { error: new AppException(signal.aborted ? 'InternalServiceTimeout' : 'InternalServiceUnavailable').toBody() };
    }
    const parsed = parseJson(text);
    if (status >= 200 && status < 300 && isObject(parsed) && 'data' in parsed) return { status, data: parsed.data };
    const error = isObject(parsed) && Array.isArray(parsed.errors) ? parsed.errors[0] : undefined;
    if (isErrorBody(error)) return { error };
    this.logger.warn({ status }, 'services-api answered a socket request outside its envelope');
    return { error: new AppException('InternalServiceUnavailable').toBody() };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrorBody(value: unknown): value is ErrorBody {
  return isObject(value) && typeof value.statusCode === 'number' && typeof value.error === 'string' && typeof value.error_code === 'number' && typeof value.message === 'string';
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? `${cause.name}: ${(cause as NodeJS.ErrnoException).code ?? cause.message}` : String(cause);
}
