import type { Redis } from 'ioredis';
import { RedisLimiterStorage } from './redis-limiter-storage.js';

export interface RedisLimiterConfig {
  /** `redis://…` or `rediss://…`. */
  readonly url: string;
  /** Deadline of one call; past it the limits fail open. */
  readonly timeoutMs: number;
  /** While Redis fails, how often one request tries it again (the others skip it). */
  readonly retryIntervalMs?: number;
}

/** A limiter storage on its own Redis connection, and how to close that connection. */
export interface OpenRedisLimiter {
  readonly storage: RedisLimiterStorage;
  close(): void;
}

const DEFAULT_RETRY_INTERVAL_MS = 1_000;

/**
 * Connects to Redis for the shared rate-limit counters. Every call has a deadline
 * (commandTimeout): a Redis that accepts connections but never answers must not hold
 * requests. Commands fail at once while the connection is down (no offline queue, no retries
 * per request), and the client reconnects by itself. ioredis is loaded only here: a server
 * without Redis never loads it.
 */
export async function openRedisLimiter(config: RedisLimiterConfig): Promise<OpenRedisLimiter> {
  const { Redis } = await import('ioredis');
  const redis: Redis = new Redis(config.url, {
    commandTimeout: config.timeoutMs,
    connectTimeout: Math.max(1_000, config.timeoutMs),
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  const storage = new RedisLimiterStorage(redis, {
    retryIntervalMs: config.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
  });
  return { storage, close: () => redis.disconnect() };
}
