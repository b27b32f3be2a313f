import { EventEmitter } from 'node:events';
import type { PlatformMetrics } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import type Redis from 'ioredis';
import { describe, expect, it } from 'vitest';
import { NamespacedRedisClient } from './redis-transport';
import type { TransportSettings } from './transport-settings';

/** A connection double with ioredis's status and events: connecting until the test says otherwise. */
class ConnectionDouble extends EventEmitter {
  status = 'wait';
  private connected: (() => void) | undefined;
  private failed: ((error: Error) => void) | undefined;

  connect(): Promise<void> {
    this.status = 'connecting';
    return new Promise((resolve, reject) => {
      this.connected = resolve;
      this.failed = reject;
    });
  }

  becomeReady(): void {
    this.status = 'ready';
    this.emit('ready');
    this.connected?.();
  }

  close(): void {
    this.status = 'reconnecting';
    this.emit('close');
    this.failed?.(new Error('Connection is closed.'));
  }

  disconnect(): void {
    this.status = 'end';
  }
}

const settings: TransportSettings = {
  redisUrl: 'redis://127.0.0.1:6379/0',
  namespace: 'spec',
  authentication: { secret: 'k'.repeat(32), maxAgeMs: 5_000 },
};

/** The client with its publisher and subscriber replaced by doubles, made in that order. */
function clientWithDoubles(): { client: NamespacedRedisClient; publisher: ConnectionDouble; subscriber: ConnectionDouble } {
  const publisher = new ConnectionDouble();
  const subscriber = new ConnectionDouble();
  const made = [publisher, subscriber];
  const client = new NamespacedRedisClient(settings, fake<PlatformMetrics>());
  client.createClient = async () => made.shift() as unknown as Redis;
  return { client, publisher, subscriber };
}

/** The client half-way through connecting: its publisher ready, its subscriber still connecting. */
async function halfConnected(): Promise<ReturnType<typeof clientWithDoubles>> {
  const doubles = clientWithDoubles();
  void doubles.client.connect().catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  doubles.publisher.becomeReady();
  return doubles;
}

/** Whether the promise has settled once every pending callback ran. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('the transport client connecting', () => {
  it('is connected for a request only once both its connections are ready, not when the first one is', async () => {
    const { client, publisher, subscriber } = await halfConnected();

    // A request's own connect() while the subscriber is still connecting: it waits for it.
    const request = client.connect();
    expect(await settledNow(request)).toBe(false);
    subscriber.becomeReady();
    expect(await settledNow(request)).toBe(true);
    expect(client.connections()).toEqual([publisher, subscriber]);
  });

  it('fails a request at once when its other connection is lost before it is ready', async () => {
    const { client, subscriber } = await halfConnected();

    const request = client.connect();
    subscriber.close();
    await expect(request).rejects.toThrow('Connection lost');
  });
});
