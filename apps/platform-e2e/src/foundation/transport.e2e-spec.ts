import { TransportPing, TransportPingPayload } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { TEST_REDIS_URL } from '@platform/testing';
import { replyChannel, TransportClient, transportNamespaceOf } from '@platform/transport';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';

/** services-api and core-tenants over the real Redis transport. */
describe('Redis transport between services-api and core-tenants', () => {
  let platform: TestPlatform;
  let client: TransportClient;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { CORE_TENANTS_RPC_TIMEOUT_MS: '500' } });
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
    const listener = new Redis(TEST_REDIS_URL);
    const monitor = await new Redis(TEST_REDIS_URL).monitor();
    const replies: { id?: string; response?: { from?: string } }[] = [];
    /** Which Redis clients claimed each request id: every replica tries, one wins (exactly-once-redis.server.ts). */
    const claimants = new Map<string, Set<string>>();
    try {
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        const [command, key] = args;
        const requestId = command?.toLowerCase() === 'set' && key?.startsWith('transport:v1:claim:') ? key.split(':').at(-1) : undefined;
        if (requestId) claimants.set(requestId, (claimants.get(requestId) ?? new Set()).add(source));
      });
      await listener.subscribe(replyChannel(transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! }), TransportPing.pattern));
      listener.on('message', (_, message) => replies.push(JSON.parse(message)));
      for (let index = 0; index < 10; index += 1) {
        await client.send(TransportPing, { sentAt: new Date().toISOString(), from: `replica-test-${index}` });
      }
      // Barrier: both replicas have taken up a request sent after the ten, so each has long decided on the ten
      // (a replica handles its requests in the order they arrive), and a second answer would have been published.
      await client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'barrier' });
      const barrier = await eventually(() => {
        const reply = replies.find((candidate) => candidate.response?.from === 'barrier');
        expect(reply?.id).toBeDefined();
        return reply!.id!;
      });
      await eventually(() => expect(claimants.get(barrier)?.size).toBe(2));
      const answers = replies.filter((reply) => reply.response?.from?.startsWith('replica-test-'));
      expect(answers.map((reply) => reply.response!.from).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `replica-test-${index}`).sort());
    } finally {
      listener.disconnect();
      monitor.disconnect();
      await second.close();
    }
  });

  it('turns a silent core-tenants into 504 5904 within the time limit', async () => {
    await platform.apps['core-tenants']!.close();
    delete platform.apps['core-tenants'];
    const started = Date.now();
    const error = await client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'transport-test' }).catch((caught: unknown) => caught);
    expect((error as AppException).toBody()).toEqual({
      statusCode: 504,
      error: 'InternalServiceTimeoutError',
      error_code: 5904,
      message: 'An internal service did not answer in time. Try again.',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
