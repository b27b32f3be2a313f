import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ClientRedis } from '@nestjs/microservices';
import type { MessageContract } from '@platform/contracts';
import { AppException, errorKeyOfCode } from '@platform/errors';
import { PlatformMetrics, TransportOutcome } from '@platform/observability';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { sendInSpan } from './message-headers';
import { isRpcErrorPayload } from './rpc-error';

/**
 * Sends contract messages and waits a bounded time for the reply. Errors come
 * back as the platform's own exception, so they render in the envelope as if
 * raised here: a catalog error keeps its code, a missing answer is 504 5904,
 * an unreachable transport 503 5903.
 *
 * Every request is observed in `platform_transport_request_duration_seconds`
 * by pattern and outcome.
 *
 * It connects when the app starts, so readiness sees a transport that cannot
 * work before the first request does, and closes its connections at shutdown.
 */
export class TransportClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TransportClient.name);

  constructor(
    private readonly client: ClientRedis,
    private readonly timeoutMs: number,
    private readonly metrics: PlatformMetrics,
  ) {}

  onApplicationBootstrap(): void {
    // A failure here is not fatal: the connection keeps retrying and readiness reports it meanwhile.
    this.client.connect().catch((error: unknown) => this.logger.warn({ err: error }, 'transport not connected yet'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  async send<Payload extends object, Reply>(message: MessageContract<Payload, Reply>, payload: Payload, timeoutMs = this.timeoutMs): Promise<Reply> {
    const startedAt = performance.now();
    try {
      const reply = await sendInSpan(message.pattern, () => firstValueFrom(this.client.send<Reply, Payload>(message.pattern, payload).pipe(timeout(timeoutMs))));
      this.metrics.transportRequestEnded(message.pattern, 'reply', startedAt);
      return reply;
    } catch (error) {
      const failure = this.translate(message.pattern, error);
      this.metrics.transportRequestEnded(message.pattern, outcomeOf(failure), startedAt);
      throw failure;
    }
  }

  private translate(pattern: string, error: unknown): AppException {
    if (error instanceof TimeoutError) {
      this.logger.warn({ pattern }, 'no reply within the time limit');
      return new AppException('InternalServiceTimeout', { cause: error });
    }
    if (isRpcErrorPayload(error)) {
      const key = errorKeyOfCode(error.error_code);
      if (key) return new AppException(key, { fields: error.fields, cause: error });
    }
    this.logger.error({ pattern, err: error instanceof Error ? error : new Error(JSON.stringify(error)) }, 'transport failure');
    return new AppException('InternalServiceUnavailable', { cause: error });
  }
}

/** A catalog error answered by the other app is a reply too (`error_reply`); 5904 and 5903 are the transport's own. */
function outcomeOf(failure: AppException): TransportOutcome {
  if (failure.key === 'InternalServiceTimeout') return 'timeout';
  if (failure.key === 'InternalServiceUnavailable') return 'failure';
  return 'error_reply';
}
