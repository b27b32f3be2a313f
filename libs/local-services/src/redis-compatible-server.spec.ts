import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCompatibleServer } from './redis-compatible-server';

/** What the platform's code asks of Redis, through the same ioredis client the apps use. */
describe('RedisCompatibleServer', () => {
  let server: RedisCompatibleServer;
  let redis: Redis;
  const clients: Redis[] = [];
  const connect = (db = 15) => {
    const client = new Redis(server.url(db), { connectionName: 'spec', maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await RedisCompatibleServer.start();
    redis = connect();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server.close();
  });

  it('keeps keys per logical database, with SET NX and PX', async () => {
    expect(await redis.set('claim', '1', 'PX', 60_000, 'NX')).toBe('OK');
    expect(await redis.set('claim', '2', 'PX', 60_000, 'NX')).toBeNull();
    expect(await redis.get('claim')).toBe('1');
    expect(await redis.pttl('claim')).toBeGreaterThan(59_000);
    expect(await connect(1).get('claim')).toBeNull();
  });

  it('runs Lua scripts with keys, arguments, nil and nested arrays', async () => {
    const hit = `local count = redis.call('INCR', KEYS[1])
      if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
      return {count, redis.call('TTL', KEYS[1])}`;
    expect(await redis.eval(hit, 1, 'hits', 60)).toEqual([1, 60]);
    expect(await redis.eval(hit, 1, 'hits', 60)).toEqual([2, 60]);
    expect(await redis.eval(`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 1000) then return 0 end return 1`, 1, 'once', 'x')).toBe(0);
    expect(await redis.eval(`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 1000) then return 0 end return 1`, 1, 'once', 'x')).toBe(1);
    expect(await redis.eval(`return redis.call('GET', KEYS[1])`, 1, 'missing')).toBeNull();
    await redis.hset('hash', 'a', '1', 'b', '2');
    expect(await redis.eval(`return {1, redis.call('HGETALL', KEYS[1])}`, 1, 'hash')).toEqual([1, ['a', '1', 'b', '2']]);
  });

  it('keeps the scripts it ran for EVALSHA, as Redis does, until SCRIPT FLUSH', async () => {
    const script = `return {KEYS[1], ARGV[1]}`;
    const sha = createHash('sha1').update(script).digest('hex');
    await expect(redis.evalsha(sha, 1, 'key', 'value')).rejects.toThrow(/NOSCRIPT/);
    expect(await redis.eval(script, 1, 'key', 'value')).toEqual(['key', 'value']);
    expect(await redis.evalsha(sha, 1, 'other', 'argument')).toEqual(['other', 'argument']);
    expect(await redis.script('FLUSH')).toBe('OK');
    await expect(redis.evalsha(sha, 1, 'key', 'value')).rejects.toThrow(/NOSCRIPT/);
    expect(await redis.script('LOAD', script)).toBe(sha);
    expect(await redis.evalsha(sha, 1, 'key', 'value')).toEqual(['key', 'value']);
  });

  it('gives scripts a missing value in an array reply as false, as Redis does', async () => {
    const firstField = `local entry = redis.call('HMGET', KEYS[1], 'codeHash', 'attempts')
      if not entry[1] then return 'none' end
      return entry[1]`;
    expect(await redis.eval(firstField, 1, 'no-such-hash')).toBe('none');
    await redis.hset('some-hash', 'attempts', '1');
    expect(await redis.eval(firstField, 1, 'some-hash')).toBe('none');
    await redis.hset('some-hash', 'codeHash', 'abc');
    expect(await redis.eval(firstField, 1, 'some-hash')).toBe('abc');
    expect(await redis.eval(`return redis.call('HMGET', KEYS[1], 'codeHash', 'nothing')`, 1, 'some-hash')).toEqual(['abc', null]);
  });

  it('answers hashes as Redis does', async () => {
    await redis.hset('fields', 'f', 'v');
    expect(await redis.hgetall('fields')).toEqual({ f: 'v' });
    expect(await redis.hmget('fields', 'f', 'none')).toEqual(['v', null]);
  });

  it('runs MULTI blocks and answers each command', async () => {
    await redis.set('gone', 'x');
    expect(await redis.multi().set('tomb', '1', 'EX', 10).del('gone').exec()).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
    expect(await redis.mget('tomb', 'gone')).toEqual(['1', null]);
  });

  it('delivers a publication to every subscriber of the channel, on any logical database', async () => {
    const subscriber = connect(3);
    const received: string[] = [];
    subscriber.on('message', (channel: string, message: string) => received.push(`${channel} ${message}`));
    await subscriber.subscribe('ns:request');
    expect(await redis.publish('ns:request', 'hello')).toBe(1);
    expect(await redis.publish('other:request', 'nobody')).toBe(0);
    await redis.ping();
    expect(received).toEqual(['ns:request hello']);
  });

  it('counts subscribers as PUBSUB NUMSUB, CHANNELS and NUMPAT do', async () => {
    const subscriber = connect(5);
    await subscriber.subscribe('ns:counted');
    await subscriber.psubscribe('ns:*');
    expect(await redis.pubsub('NUMSUB', 'ns:counted', 'ns:nobody')).toEqual(['ns:counted', 1, 'ns:nobody', 0]);
    expect(await redis.pubsub('CHANNELS', 'ns:*')).toContain('ns:counted');
    expect(await redis.pubsub('CHANNELS', 'other:*')).toEqual([]);
    expect(await redis.pubsub('NUMPAT')).toBeGreaterThanOrEqual(1);
    await subscriber.unsubscribe('ns:counted');
    expect(await redis.pubsub('NUMSUB', 'ns:counted')).toEqual(['ns:counted', 0]);
  });

  it('delivers an empty publication, as the outbox nudge is (it carries nothing)', async () => {
    const subscriber = connect(4);
    const received: string[] = [];
    subscriber.on('message', (channel: string, message: string) => received.push(`${channel} [${message}]`));
    await subscriber.subscribe('realtime:v1:outbox-committed:ns');
    expect(await redis.publish('realtime:v1:outbox-committed:ns', '')).toBe(1);
    await redis.ping();
    expect(received).toEqual(['realtime:v1:outbox-committed:ns []']);
  });

  it('lists subscribed connections by name and database, and closes one by its id, as Redis does', async () => {
    const listener = new Redis(server.url(4), { connectionName: 'app:listener', maxRetriesPerRequest: 1, retryStrategy: () => null });
    clients.push(listener);
    await listener.subscribe('ns:forgotten');
    const listed = async (type: string) => String(await redis.call('CLIENT', 'LIST', 'TYPE', type)).trim().split('\n');
    const lines = (await listed('pubsub')).filter((line) => line.includes(' name=app:listener '));
    expect(lines).toEqual([expect.stringMatching(/^id=\d+ addr=\S+ name=app:listener db=4 sub=1 psub=0$/)]);
    expect((await listed('normal')).join('\n')).not.toContain('app:listener');
    const id = /^id=(\d+)/.exec(lines[0])![1];
    const closed = new Promise((resolve) => listener.once('end', resolve));
    expect(await redis.call('CLIENT', 'KILL', 'ID', id)).toBe(1);
    await closed;
    expect(await redis.call('CLIENT', 'KILL', 'ID', id)).toBe(0);
    expect((await listed('pubsub')).join('\n')).not.toContain('app:listener');
  });

  it('refuses a command it does not know, as an error reply', async () => {
    await expect(redis.call('NOSUCHCOMMAND')).rejects.toThrow(/unknown command/);
  });

  it('empties one logical database with FLUSHDB', async () => {
    await redis.set('kept', '1');
    await connect(4).set('elsewhere', '1');
    await redis.flushdb();
    expect(await redis.get('kept')).toBeNull();
    expect(await connect(4).get('elsewhere')).toBe('1');
  });
  describe('streams', () => {
    it('adds entries with increasing ids, trims them by MAXLEN and MINID, and reads ranges with exclusive bounds and COUNT', async () => {
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) ids.push((await redis.xadd('stream', 'MAXLEN', '~', 4, '*', 'e', `${index}`)) as string);
      expect([...ids].sort()).toEqual(ids);
      expect(await redis.xlen('stream')).toBe(4);
      expect(await redis.xrange('stream', `(${ids[1]}`, '+', 'COUNT', 2)).toEqual([
        [ids[2], ['e', '2']],
        [ids[3], ['e', '3']],
      ]);
      expect(await redis.xrevrange('stream', '+', '-', 'COUNT', 1)).toEqual([[ids[4], ['e', '4']]]);
      expect(await redis.xrange('stream', ids[0], ids[0])).toEqual([]);
      expect(await redis.xtrim('stream', 'MINID', '~', ids[3])).toBe(2);
      expect((await redis.xrange('stream', '-', '+')).map(([id]) => id)).toEqual([ids[3], ids[4]]);
      await expect(redis.xadd('stream', '1-0', 'e', 'old')).rejects.toThrow(/equal or smaller/);
    });

    it('blocks XREAD until an entry arrives, while other connections are served, and expires stream keys', async () => {
      const reader = connect();
      const after = (await redis.xrevrange('blocking', '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';
      // BLOCK 0: until an entry arrives, however long the machine takes to send it (the test's timeout bounds it).
      const read = reader.xread('COUNT', 10, 'BLOCK', 0, 'STREAMS', 'blocking', after);
      // Served although the read is blocked.
      expect(await redis.set('meanwhile', '1')).toBe('OK');
      const id = (await redis.xadd('blocking', '*', 'e', 'woken')) as string;
      expect(await read).toEqual([['blocking', [[id, ['e', 'woken']]]]]);
      expect(await reader.xread('COUNT', 1, 'BLOCK', 50, 'STREAMS', 'blocking', id)).toBeNull();
      expect(await redis.pexpire('blocking', 1)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await redis.xlen('blocking')).toBe(0);
    });

    it('runs stream commands inside MULTI', async () => {
      const replies = await redis.multi().xadd('queued', '*', 'e', '1').xlen('queued').exec();
      expect(replies?.[1]).toEqual([null, 1]);
    });
  });
});
