import type Redis from 'ioredis';

/** A value read from Redis, and when its copy there expires (absent when it has no expiry or expired meanwhile). */
export interface RedisCopy {
  value: string;
  expiresAtMs?: number;
}

/**
 * Reads a key and its remaining time to live in one round trip, so a caller
 * can keep the value in-process exactly as long as Redis keeps it. Undefined
 * when the key is missing; throws when Redis fails.
 */
export async function readRedisCopy(redis: Redis, key: string): Promise<RedisCopy | undefined> {
  const readAt = Date.now();
  const replies = await redis.pipeline().get(key).pttl(key).exec();
  const [[getError, value], [ttlError, ttlMs]] = replies ?? [];
  if (getError) throw getError;
  if (typeof value !== 'string') return undefined;
  return { value, expiresAtMs: !ttlError && typeof ttlMs === 'number' && ttlMs > 0 ? readAt + ttlMs : undefined };
}
