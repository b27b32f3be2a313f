import { randomBytes, randomUUID } from 'node:crypto';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { IssueOperatorToken, TransportPing } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { MetricsListener } from '@platform/observability';
import { createTestRedis, TestRedis } from '@platform/testing';
import { MessageAuthenticator, replyChannel, requestChannel, TransportClient, transportNamespaceOf } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { startPlatform, TestPlatform } from '../support/platform';
import { packetOf, sealedWith } from '../support/transport-messages';

const REFUSED = 'platform_transport_messages_refused_total';
const anotherKey = () => randomBytes(32).toString('base64url');

interface Packet {
  pattern?: string;
  id: string;
  data?: unknown;
  response?: any;
  err?: unknown;
  metadata?: Record<string, string>;
}

/**
 * Whoever can publish on Redis but does not hold TRANSPORT_SECRET
 * (docs/transport.md, Authenticated messages; docs/security.md, The cluster).
 */
describe('transport messages without the apps key', () => {
  let platform: TestPlatform;
  let secret: string;
  let namespace: string;
  let operatorID: string;
  let attacker: TestRedis;
  let subscriber: TestRedis;
  let coreMetricsUrl: string;
  const replies: Packet[] = [];

  const issueChannel = () => requestChannel(namespace, IssueOperatorToken.pattern);
  /** Nest's request packet for an operator token, as the attack in the review sends it. */
  const tokenRequest = (): Packet => ({
    pattern: IssueOperatorToken.pattern,
    data: { operatorID },
    id: randomUUID(),
    metadata: { 'x-actor': `operator:${operatorID}`, 'x-request-id': 'forged' },
  });
  const repliesTo = (packet: Packet) => replies.filter((reply) => reply.id === packet.id);
  const refusedRequests = async (reason: string) => (await scrape(coreMetricsUrl)).value(REFUSED, { direction: 'request', reason }) ?? 0;

  /**
   * A request sealed with the apps' key, answered: proves the channel and packet the forged messages use,
   * and, answered after them on the same connection, that they were dealt with.
   */
  async function genuineRequestAnswered(): Promise<Packet> {
    const packet = tokenRequest();
    await attacker.publish(issueChannel(), sealedWith(secret, 'request', issueChannel(), packet));
    return eventually(() => {
      const [reply] = repliesTo(packet);
      expect(reply).toBeDefined();
      return reply;
    });
  }

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
    secret = platform.env.TRANSPORT_SECRET!;
    namespace = transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! });
    ({ operatorID } = await platform.fixtures.operator());
    const tenantID = await platform.fixtures.tenant();
    await platform.fixtures.membership(tenantID, operatorID, 'owner');
    coreMetricsUrl = await platform.apps['core-tenants']!.get(MetricsListener).listen(0, '127.0.0.1');
    attacker = createTestRedis();
    subscriber = createTestRedis();
    await subscriber.subscribe(replyChannel(namespace, IssueOperatorToken.pattern));
    subscriber.on('message', (_channel, message) => replies.push(packetOf<Packet>(message)));
  });
  afterAll(async () => {
    attacker?.disconnect();
    subscriber?.disconnect();
    await platform?.close();
  });

  it('answers a request sealed with the apps key, with a reply sealed the same way', async () => {
    const reply = await genuineRequestAnswered();
    expect(reply.response).toEqual({ token: expect.stringMatching(/^ey/), expiresInSeconds: expect.any(Number) });
  });

  it.each([
    ['unsigned (Nest packet as is)', 'unsigned', (packet: Packet) => JSON.stringify(packet)],
    ['signed with another key', 'bad_mac', (packet: Packet) => sealedWith(anotherKey(), 'request', issueChannel(), packet)],
    [
      'altered after signing',
      'bad_mac',
      (packet: Packet) => {
        const sealed = JSON.parse(sealedWith(secret, 'request', issueChannel(), { ...packet, data: { operatorID: randomUUID() } })) as { signed: string; mac: string };
        return JSON.stringify({ ...sealed, signed: sealed.signed.replace(/"operatorID":"[^"]+"/, `"operatorID":"${operatorID}"`) });
      },
    ],
    ['signed 30 seconds ago (replayed)', 'stale', (packet: Packet) => sealedWith(secret, 'request', issueChannel(), packet, 30_000)],
    ['signed for another channel', 'misrouted', (packet: Packet) => sealedWith(secret, 'request', requestChannel(namespace, TransportPing.pattern), packet)],
    ['signed as a reply', 'misrouted', (packet: Packet) => sealedWith(secret, 'reply', issueChannel(), packet)],
  ])('drops a request %s before claiming it: no reply, no token, counted', async (_case, reason, forge) => {
    const countedBefore = await refusedRequests(reason);
    const forged = tokenRequest();
    await attacker.publish(issueChannel(), forge(forged));
    await genuineRequestAnswered();
    expect(repliesTo(forged)).toEqual([]);
    // Dropped before the claim: the request id was not even taken.
    expect(await attacker.exists(`transport:v1:claim:${namespace}:${forged.id}`)).toBe(0);
    expect(await refusedRequests(reason)).toBe(countedBefore + 1);
  });

  it('answers a genuine request replayed within its age limit once only', async () => {
    const packet = tokenRequest();
    const sealed = sealedWith(secret, 'request', issueChannel(), packet);
    await attacker.publish(issueChannel(), sealed);
    await attacker.publish(issueChannel(), sealed);
    await genuineRequestAnswered();
    expect(repliesTo(packet)).toHaveLength(1);
  });
});

describe('transport replies without the apps key', () => {
  let platform: TestPlatform;
  let client: TransportClient;
  let impostor: TestRedis;
  let publisher: TestRedis;
  let servicesMetricsUrl: string;
  let forge: (channel: string, packet: Packet) => string = () => '';

  beforeAll(async () => {
    // No core-tenants: the impostor below is the only one answering.
    platform = await startPlatform({ apps: ['services-api'] });
    client = platform.apps['services-api']!.get(TransportClient);
    servicesMetricsUrl = await platform.apps['services-api']!.get(MetricsListener).listen(0, '127.0.0.1');
    const namespace = transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! });
    const replyOn = replyChannel(namespace, TransportPing.pattern);
    impostor = createTestRedis();
    publisher = createTestRedis();
    // Reads each request (its id is in the clear) and answers it at once, as a third party on Redis can.
    await impostor.subscribe(requestChannel(namespace, TransportPing.pattern));
    impostor.on('message', (_channel, message) => {
      const request = packetOf<Packet>(message);
      const reply: Packet = { id: request.id, response: { app: 'core-tenants', from: 'impostor', receivedAt: new Date().toISOString() }, isDisposed: true } as Packet;
      void publisher.publish(replyOn, forge(replyOn, reply));
    });
  });
  afterAll(async () => {
    impostor?.disconnect();
    publisher?.disconnect();
    await platform?.close();
  });

  const ping = () => client.send(TransportPing, { sentAt: new Date().toISOString(), from: 'reply-test' });
  const refusedReplies = async (reason: string) => (await scrape(servicesMetricsUrl)).value(REFUSED, { direction: 'reply', reason }) ?? 0;

  it('takes a reply sealed with the apps key (the shape the forged ones copy)', async () => {
    forge = (channel, packet) => sealedWith(platform.env.TRANSPORT_SECRET!, 'reply', channel, packet);
    await expect(ping()).resolves.toMatchObject({ from: 'impostor' });
  });

  it.each([
    ['unsigned', 'unsigned', (_channel: string, packet: Packet) => JSON.stringify(packet)],
    ['signed with another key', 'bad_mac', (channel: string, packet: Packet) => sealedWith(anotherKey(), 'reply', channel, packet)],
  ])('ignores a forged reply %s: the caller times out (504 5904) and it is counted', async (_case, reason, forgery) => {
    const countedBefore = await refusedReplies(reason);
    forge = forgery;
    const error = await ping().catch((caught: unknown) => caught);
    expect((error as AppException).toBody()).toMatchObject({ statusCode: 504, error_code: 5904 });
    await eventually(async () => expect(await refusedReplies(reason)).toBe(countedBefore + 1));
  });
});

describe('rotating TRANSPORT_SECRET', () => {
  let platform: TestPlatform;
  const opened: NestFastifyApplication[] = [];
  const [oldKey, newKey] = [anotherKey(), anotherKey()];

  beforeAll(async () => {
    platform = await startPlatform({ apps: [] });
  });
  afterAll(async () => {
    for (const app of opened.reverse()) await app.close();
    await platform?.close();
  });

  const keys = (secret: string, accepted?: string) => ({ TRANSPORT_SECRET: secret, ...(accepted ? { TRANSPORT_SECRET_ACCEPTED: accepted } : {}) });

  /** A ping from a services-api with `servicesKeys` to a core-tenants with `coreKeys`: the reply, or the error. */
  async function ping(servicesKeys: Record<string, string>, coreKeys: Record<string, string>): Promise<unknown> {
    const core = await createCoreTenantsApp(loadConfig(CoreTenantsConfig, { ...process.env, ...platform.env, ...coreKeys }));
    const services = await createServicesApiApp(loadConfig(ServicesApiConfig, { ...process.env, ...platform.env, ...servicesKeys }));
    opened.push(core, services);
    try {
      await core.startAllMicroservices();
      await core.init();
      await services.init();
      return await services.get(TransportClient).send(TransportPing, { sentAt: new Date().toISOString(), from: 'rotation' }).catch((caught: unknown) => caught);
    } finally {
      await services.close();
      await core.close();
      opened.splice(opened.indexOf(core), 2);
    }
  }

  it('keeps an app on the old key and one on the new key talking while each accepts the other', async () => {
    // Step 1 of the rotation (new key accepted) on one side, step 2 (signing with it) on the other; both ways round.
    await expect(ping(keys(oldKey, newKey), keys(newKey, oldKey))).resolves.toMatchObject({ from: 'rotation' });
    await expect(ping(keys(newKey, oldKey), keys(oldKey, newKey))).resolves.toMatchObject({ from: 'rotation' });
  });

  it('does not let an app that does not accept the new key take its messages (why step 1 comes first)', async () => {
    const error = await ping(keys(newKey, oldKey), keys(oldKey));
    expect((error as AppException).toBody()).toMatchObject({ statusCode: 504, error_code: 5904 });
  });

  it('signs with TRANSPORT_SECRET only: the accepted key verifies, never signs', () => {
    const sealed = new MessageAuthenticator({ secret: newKey, acceptedSecret: oldKey, maxAgeMs: 5_000 }).seal('request', 'ns:p', { id: '1' });
    expect(new MessageAuthenticator({ secret: oldKey, maxAgeMs: 5_000 }).open('request', 'ns:p', sealed)).toEqual({ ok: false, reason: 'bad_mac' });
    expect(new MessageAuthenticator({ secret: newKey, maxAgeMs: 5_000 }).open('request', 'ns:p', sealed)).toEqual({ ok: true, packet: { id: '1' } });
  });
});
