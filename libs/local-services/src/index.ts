export { RedisCompatibleServer } from './redis-compatible-server';
export { startEmbeddedPostgres } from './embedded-postgres';
export type { EmbeddedPostgres, EmbeddedPostgresOptions } from './embedded-postgres';
