import { ServerRedis } from '@nestjs/microservices';
import type Redis from 'ioredis';

/** How long a claim on a request id is kept: far longer than any caller waits. */
const CLAIM_TTL_MS = 10 * 60 * 1000;

/**
 * Nest's Redis transport is publish/subscribe: every replica of the listening
 * app receives every request, runs the handler and answers, and the caller
 * keeps the first answer. For handlers with side effects (removing a
 * connection, creating a VM) that would run them once per replica. This
 * server claims each request id with an atomic `SET NX` before handling it:
 * exactly one replica runs the handler and answers; the others stay silent.
 * The wire format is Nest's own, so callers use the stock Redis client.
 */
export class ExactlyOnceRedisServer extends ServerRedis {
  override async handleMessage(channel: string, buffer: string, pub: Redis, pattern: string): Promise<unknown> {
    const requestId = this.requestIdOf(buffer);
    if (requestId !== undefined) {
      const claimed = await pub.set(`transport:v1:claim:${requestId}`, '1', 'PX', CLAIM_TTL_MS, 'NX');
      if (claimed !== 'OK') return undefined;
    }
    return super.handleMessage(channel, buffer, pub, pattern);
  }

  private requestIdOf(buffer: string): string | undefined {
    const message = this.parseMessage(buffer) as { id?: unknown } | string;
    return typeof message === 'object' && message !== null && typeof message.id === 'string' ? message.id : undefined;
  }
}
