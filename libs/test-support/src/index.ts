/**
 * What a repository spec needs and no more: a database of its own cloned
 * from the migrated template, the test Redis, tenant rows. It imports no app
 * and no feature library, so the specs of any library (audit, the outbox,
 * idempotency keys) may use it beside their repository; libs/testing, which
 * boots apps, builds on it.
 */
export { adminDatabaseUrl, createTestDatabase, createTestDataSource, DEFAULT_ADMIN_DATABASE_URL, prepareTemplateDatabase } from './test-database';
export type { TestDatabase } from './test-database';
export { POOLER_URL_VARIABLE, startTestPooler } from './test-pooler';
export type { TestPooler } from './test-pooler';
export { clusterSeeds, createTestRedis, DEFAULT_TEST_REDIS_URL, resetTestRedis, TEST_REDIS_CLUSTER_NODES, TEST_REDIS_SPARE_URL, TEST_REDIS_URL, testRedisEnv, testRedisNodes, testRedisSubscribers } from './test-redis';
export type { TestRedis } from './test-redis';
export { insertTenant } from './tenant-rows';
export type { Queryable } from './tenant-rows';
