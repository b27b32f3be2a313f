export { RateLimiter } from './rate-limiter';
export type { RateLimitRule, RateLimitVerdict } from './rate-limiter';
export { createRedisClient, REDIS, RedisModule } from './redis.module';
export { QuotaCounters } from './quota-counters';
export type { QuotaCounter, QuotaReading } from './quota-counters';
