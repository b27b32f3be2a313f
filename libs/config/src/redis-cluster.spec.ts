import { describe, expect, it } from 'vitest';
import { BaseConfig } from './base.config';
import { platformDependencies } from './dependency-reachability';
import { ConfigurationError, loadConfig } from './load-config';
import { parseRedisClusterNodes, redisTopologyOf } from './redis-cluster';

const env = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/platform', REDIS_URL: 'redis://:secret@127.0.0.1:6379/0' };

function problemsOf(extra: Record<string, string>): string[] {
  try {
    loadConfig(BaseConfig, { ...env, ...extra });
    return [];
  } catch (error) {
    return (error as ConfigurationError).problems;
  }
}

describe('REDIS_CLUSTER_NODES', () => {
  it('is optional: a single Redis stays the default', () => {
    expect(redisTopologyOf(loadConfig(BaseConfig, env))).toEqual({ url: env.REDIS_URL });
  });

  it('selects a cluster reached through its seeds, with the credentials of REDIS_URL', () => {
    const config = loadConfig(BaseConfig, { ...env, REDIS_CLUSTER_NODES: 'redis-0:6379, redis-1:6380,[::1]:7000' });
    expect(redisTopologyOf(config)).toEqual({
      url: env.REDIS_URL,
      clusterSeeds: [
        { host: 'redis-0', port: 6379 },
        { host: 'redis-1', port: 6380 },
        { host: '::1', port: 7000 },
      ],
    });
  });

  it.each(['redis-0', 'redis-0:0', 'redis-0:70000', 'redis://redis-0:6379', ' , '])('refuses %j, naming the variable', (value) => {
    expect(problemsOf({ REDIS_CLUSTER_NODES: value })).toEqual([expect.stringMatching(/^REDIS_CLUSTER_NODES is malformed: must be a comma-separated list of host:port seeds/)]);
  });

  it('refuses a REDIS_URL naming a database other than 0, which a cluster does not have', () => {
    expect(problemsOf({ REDIS_CLUSTER_NODES: 'redis-0:6379', REDIS_URL: 'redis://:secret@127.0.0.1:6379/15' })).toEqual([
      expect.stringMatching(/^REDIS_URL is malformed: must name database 0 \(or none\) when REDIS_CLUSTER_NODES is set/),
    ]);
    expect(problemsOf({ REDIS_CLUSTER_NODES: 'redis-0:6379', REDIS_URL: 'redis://:secret@127.0.0.1:6379' })).toEqual([]);
    expect(problemsOf({ REDIS_URL: 'redis://:secret@127.0.0.1:6379/15' })).toEqual([]);
  });

  it('has the first seed checked at boot in place of REDIS_URL', () => {
    expect(platformDependencies({ ...env, REDIS_CLUSTER_NODES: 'redis-0:7000,redis-1:7001' })[1]).toMatchObject({ variable: 'REDIS_CLUSTER_NODES', url: 'redis://redis-0:7000' });
  });

  it('parses seeds only when every entry is host:port', () => {
    expect(parseRedisClusterNodes('a:1,b')).toBeUndefined();
  });
});
