import Redis from 'ioredis';

/**
 * Redis for tests: a logical database of its own (15 unless TEST_REDIS_URL
 * says otherwise), emptied when a test file starts. Test files run one at a
 * time, so they never see each other's keys or transport messages.
 */
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379/15';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? DEFAULT_TEST_REDIS_URL;

export async function resetTestRedis(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}
