export { REDIS, RedisModule } from './redis.module';
export { connectionNameOf, createRedisClient, duplicateConnection, isClustered, isClusterClient, masterConnections } from './redis-connections';
export type { ConnectionOverrides, RedisTopology } from './redis-connections';
export { keySlot, slotTag, tenantTag } from './key-slots';
