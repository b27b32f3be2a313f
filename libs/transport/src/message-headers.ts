import { Logger } from '@nestjs/common';
import type { ReadPacket, RedisContext } from '@nestjs/microservices';
import { continueFrom, currentRequestID, inSpan, propagatedHeaders, SpanKind } from '@platform/observability';
import type { Span } from '@opentelemetry/api';

/**
 * The request id and trace context cross the transport in the message's
 * `metadata` (Nest's out-of-band packet field, beside `pattern`, `data` and
 * `id`), never in the payload: the payload is validated against its contract,
 * and a receiver that predates this reads `data` alone and ignores the rest,
 * so senders and receivers can be deployed in any order.
 */

/** Client side: Nest's dispatch hook, attaching the headers of the work sending the message. */
export function attachPropagatedHeaders(packet: ReadPacket): void {
  const headers = propagatedHeaders();
  if (headers) packet.metadata = headers;
}

const spanAttributes = (pattern: string) => ({ 'rpc.system': 'nestjs-redis', 'rpc.method': pattern });

/** Client side: one request and its reply, as a client span (with tracing on). */
export function sendInSpan<Reply>(pattern: string, send: () => Promise<Reply>): Promise<Reply> {
  return inSpan({ name: `transport ${pattern}`, kind: SpanKind.CLIENT, attributes: spanAttributes(pattern) }, send);
}

interface MessageInProgress {
  pattern: string;
  requestID: string | undefined;
  startedAt: number;
  span: Span | undefined;
}

/**
 * Listener side: the handling of one message, from Nest's processing start
 * hook to its end hook (after the reply is published). Runs under the request
 * id the message carries, in a server span whose parent is the sender's span,
 * and ends with one `message completed` line under that request id, as an
 * HTTP request ends with `request completed` (a failure is logged by the
 * transport's error filter, so the line stays at info).
 */
export class IncomingMessages {
  private readonly logger = new Logger('Transport');
  private readonly open = new WeakMap<object, MessageInProgress>();

  start(context: RedisContext, handle: () => Promise<unknown>): Promise<unknown> {
    // The listener hands Nest the bare pattern as the channel (exactly-once-redis.server.ts).
    const pattern = context.getChannel();
    return continueFrom(context.getMetadata(), { name: `transport ${pattern}`, kind: SpanKind.SERVER, attributes: spanAttributes(pattern) }, (span) => {
      this.open.set(context, { pattern, requestID: currentRequestID(), startedAt: performance.now(), span });
      return handle();
    });
  }

  /** Nest runs this once the reply is published, or once a failed start is over. */
  end(context: RedisContext): void {
    const message = this.open.get(context);
    if (!message) return;
    this.open.delete(context);
    message.span?.end();
    const responseTime = Math.round(performance.now() - message.startedAt);
    this.logger.log({ msg: 'message completed', req: { id: message.requestID }, rpc: { pattern: message.pattern }, responseTime });
  }
}
