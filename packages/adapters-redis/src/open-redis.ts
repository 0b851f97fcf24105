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
  const connectTimeoutMs = Math.max(1_000, config.timeoutMs);
  const redis: Redis = new Redis(config.url, {
    commandTimeout: config.timeoutMs,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  const storage = new RedisLimiterStorage(redis, {
    retryIntervalMs: config.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
  });
  await firstConnection(redis, connectTimeoutMs);
  return { storage, close: () => redis.disconnect() };
}

/**
 * Resolves once the connection is ready, has failed, or `timeoutMs` passed, whichever comes
 * first: without it the first requests after a start met a connection still opening, were not
 * counted and logged an outage that was none. A Redis that is down does not hold the start: the
 * limits then begin open, as they are during any outage.
 */
function firstConnection(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      redis.off('ready', settle);
      redis.off('error', settle);
      resolve();
    };
    const timer = setTimeout(settle, timeoutMs);
    redis.once('ready', settle);
    redis.once('error', settle);
  });
}
