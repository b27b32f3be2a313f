import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { connectionKey, connectionTombstoneKey, standingInvalidationChannel } from '@platform/auth';
import * as contracts from '@platform/contracts';
import { createRedisClient, duplicateConnection, keySlot, masterConnections, tenantTag } from '@platform/redis';
import { FixedWindowCounters } from '@platform/request-budgets';
import { clusterSeeds, TEST_REDIS_CLUSTER_NODES } from '@platform/testing';
import { replyChannel, requestChannel } from '@platform/transport';
import { outboxCommittedChannel } from '@platform/webhooks';
import type Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The platform's Redis paths on a Redis Cluster, through the connection
 * factory the apps use: run with TEST_REDIS_CLUSTER_NODES (host:port seeds of
 * a cluster of three masters or more); skipped without.
 */
const seeds = TEST_REDIS_CLUSTER_NODES;

describe.skipIf(!seeds)('Redis Cluster paths', () => {
  let redis: Redis;
  const topology = () => ({
    url: process.env.TEST_REDIS_CLUSTER_URL ?? 'redis://127.0.0.1',
    clusterSeeds: clusterSeeds(seeds!),
  });

  beforeAll(async () => {
    redis = createRedisClient(topology(), 'cluster-spec');
    await once(redis, 'ready');
  });
  afterAll(() => redis?.quit());

  it('charges a connection and its tenant in one script', async () => {
    const tenant = randomUUID();
    const counters = new FixedWindowCounters(redis);
    const readings = await counters.charge([
      { key: `quota:v1:spec:principal:pluginConnection:${randomUUID()}:${tenantTag(tenant)}`, limit: 2, windowSeconds: 60 },
      { key: `quota:v1:spec:tenant:${tenantTag(tenant)}`, limit: 5, windowSeconds: 60 },
    ]);
    expect(readings.map(({ remaining }) => remaining)).toEqual([1, 4]);
  });

  it('runs a transaction and an MGET over the keys of one tag', async () => {
    const id = randomUUID();
    await redis.multi().set(connectionTombstoneKey(id), 'x', 'EX', 60).del(connectionKey(id)).exec();
    expect(await redis.mget(connectionKey(id), connectionTombstoneKey(id))).toEqual([null, 'x']);
  });

  it('delivers sharded messages on every channel the platform uses', async () => {
    const subscriber = duplicateConnection(redis, 'cluster-spec:sub', { autoResubscribe: false });
    await once(subscriber, 'ready');
    const channel = standingInvalidationChannel(`spec-${randomUUID()}`);
    await subscriber.subscribe(channel);
    const received = once(subscriber, 'message');
    expect(await redis.publish(channel, 'forgotten')).toBe(1);
    expect(await received).toEqual([channel, 'forgotten']);
    await subscriber.quit();
  });

  it('reads streams of several slots', async () => {
    const keys = [randomUUID(), randomUUID(), randomUUID()].map((tenant) => `realtime:v1:spec:stream:${tenant}`);
    for (const key of keys) await redis.xadd(key, '*', 'e', key);
    const replies = await Promise.all(keys.map((key) => redis.xread('COUNT', 10, 'STREAMS', key, '0')));
    expect(replies.map((reply) => reply?.[0][0])).toEqual(keys);
  });

  it('spreads the channels an environment uses over the masters', async () => {
    const namespace = 'production';
    const patterns = (Object.values(contracts) as unknown[])
      .map((value) => (value as { pattern?: unknown } | null)?.pattern)
      .filter((pattern): pattern is string => typeof pattern === 'string');
    const channels = [
      ...patterns.flatMap((pattern) => [requestChannel(namespace, pattern), replyChannel(namespace, pattern)]),
      standingInvalidationChannel(namespace),
      outboxCommittedChannel(namespace),
    ];
    const masters = masterConnections(redis);
    const ranges = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
    const masterOf = (slot: number) => ranges.find(([from, to]) => slot >= from && slot <= to)![2].join(':');
    const perMaster = new Map<string, number>();
    for (const channel of channels) perMaster.set(masterOf(keySlot(channel)), (perMaster.get(masterOf(keySlot(channel))) ?? 0) + 1);
    // The figure in docs/scaling.md (Redis Cluster): each master's share of the channels.
    process.stdout.write(`${channels.length} channels over ${masters.length} masters: ${JSON.stringify(Object.fromEntries(perMaster))}\n`);
    expect(perMaster.size).toBe(masters.length);
  });
});
