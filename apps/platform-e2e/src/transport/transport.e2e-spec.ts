import { TransportPing, TransportPingPayload } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { ServerRedis } from '@nestjs/microservices';
import { loadConfig } from '@platform/config';
import { createTestRedis } from '@platform/testing';
import { ExactlyOnceRedisServer, replyChannel, TransportClient, transportNamespaceOf } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';
import { packetOf } from '../support/transport-messages';

/** services-api and core-tenants over the real Redis transport. */
describe('Redis transport between services-api and core-tenants', () => {
  let platform: TestPlatform;
  let client: TransportClient;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    client = platform.apps['services-api']!.get(TransportClient);
  });
  afterAll(() => platform.close());

  it('carries a request to core-tenants and its reply back', async () => {
    const reply = await client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'transport-test' });
    expect(reply).toMatchObject({ app: 'core-tenants', from: 'transport-test' });
    expect(Date.parse(reply.receivedAt)).not.toBeNaN();
  });

  it('validates the payload on receipt and returns 1002 with its fields', async () => {
    const invalid = { sentAt: 'yesterday', from: 'transport-test', extra: 1 } as unknown as TransportPingPayload;
    const error = await client.send(TransportPing, invalid).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).toBody()).toEqual({
      statusCode: 400,
      error: 'RequestValidationError',
      error_code: 1002,
      message: 'Invalid request data.',
      fields: [
        { field: 'extra', received: '1', allowed: 'no such field' },
        { field: 'sentAt', received: 'yesterday', allowed: 'ISO 8601 date-time' },
      ],
    });
  });

  it('has exactly one core-tenants replica answer each request', async () => {
    const second = await createCoreTenantsApp(loadConfig(CoreTenantsConfig, { ...process.env, ...platform.env }));
    await second.startAllMicroservices();
    await second.init();
    // Every replica receives every request and claims its id; only the winner reaches Nest's handling
    // (exactly-once-redis.server.ts). Counted in process, as both replicas run here.
    const decided = new Map<string, number>();
    const handled = new Map<string, number>();
    // The listener receives the sealed message; Nest's handling, the packet inside it.
    const sealedIdOf = (buffer: string) => packetOf<{ id: string }>(buffer).id;
    const idOf = (buffer: string) => (JSON.parse(buffer) as { id: string }).id;
    const claiming = ExactlyOnceRedisServer.prototype.handleMessage;
    vi.spyOn(ExactlyOnceRedisServer.prototype, 'handleMessage').mockImplementation(async function (this: ExactlyOnceRedisServer, ...args) {
      try {
        return await claiming.apply(this, args);
      } finally {
        decided.set(sealedIdOf(args[1]), (decided.get(sealedIdOf(args[1])) ?? 0) + 1);
      }
    });
    const handling = ServerRedis.prototype.handleMessage;
    vi.spyOn(ServerRedis.prototype, 'handleMessage').mockImplementation(function (this: ServerRedis, ...args) {
      handled.set(idOf(args[1]), (handled.get(idOf(args[1])) ?? 0) + 1);
      return handling.apply(this, args);
    });
    const listener = createTestRedis();
    const replies: { id?: string; response?: { from?: string } }[] = [];
    try {
      await listener.subscribe(replyChannel(transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! }), TransportPing.pattern));
      listener.on('message', (_, message) => replies.push(packetOf(message)));
      for (let index = 0; index < 10; index += 1) {
        await client.send(TransportPing, { sentAt: new Date().toISOString(), from: `replica-test-${index}` });
      }
      const answers = await eventually(() => {
        const found = replies.filter((reply) => reply.response?.from?.startsWith('replica-test-'));
        expect(found).toHaveLength(10);
        return found;
      });
      expect(answers.map((reply) => reply.response!.from).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `replica-test-${index}`).sort());
      const ids = answers.map((reply) => reply.id!);
      // Both replicas have decided on every request: one handled it, the other stayed silent.
      await eventually(() => expect(ids.map((id) => decided.get(id))).toEqual(ids.map(() => 2)));
      expect(ids.map((id) => handled.get(id))).toEqual(ids.map(() => 1));
    } finally {
      vi.restoreAllMocks();
      listener.disconnect();
      await second.close();
    }
  });

  it('turns a silent core-tenants into 504 5904 once the time limit passes', async () => {
    await platform.apps['core-tenants']!.close();
    delete platform.apps['core-tenants'];
    // A time limit of half a second instead of the apps' ten: the same refusal, without waiting ten seconds for it.
    const error = await client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'transport-test' }, 500).catch((caught: unknown) => caught);
    expect((error as AppException).toBody()).toEqual({
      statusCode: 504,
      error: 'InternalServiceTimeoutError',
      error_code: 5904,
      message: 'An internal service did not answer in time. Try again.',
    });
  });
});
