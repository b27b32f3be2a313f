export { FixtureBuilder } from './fixtures';
export type { OperatorFixture, PluginConnectionFixture, PluginFixture, Queryable } from './fixtures';
export { request, singleError } from './http';
export type { JsonResponse, RequestOptions } from './http';
export { generateTestSigningKey, signOperatorToken, unsignedToken } from './signing-keys';
export type { TestSigningKey, TokenOverrides } from './signing-keys';
export { ADMIN_DATABASE_URL, createTestDatabase, prepareTemplateDatabase } from './test-database';
export { resetTestRedis, TEST_REDIS_URL } from './test-redis';
