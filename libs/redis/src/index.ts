export { createRedisClient, REDIS, RedisModule } from './redis.module';
