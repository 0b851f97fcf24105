import { Redis } from 'ioredis';
import { reportSkipped } from './skipped.js';

/**
 * The shared Redis of the suites that count in one (the machine's, or PLANTSTORE_TEST_REDIS_URL).
 * Suites that stop or freeze a Redis start one of their own (redis-process.ts).
 */
export const REDIS_URL_VARIABLE = 'PLANTSTORE_TEST_REDIS_URL';
export const REDIS_URL = process.env[REDIS_URL_VARIABLE] || 'redis://127.0.0.1:6379';

/**
 * Whether Redis can be used by the suites named in `what`. In CI it must be (an unreachable
 * Redis fails the run); elsewhere they skip, listed at the end of the run with how to enable them.
 */
export async function redisAvailable(what = 'limits shared by two instances through Redis'): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true')
      throw new Error(`Redis at ${REDIS_URL} is unreachable in CI: ${(error as Error).message}`, { cause: error });
    reportSkipped(what, `start a Redis at ${REDIS_URL}, or set ${REDIS_URL_VARIABLE}`);
    return false;
  } finally {
    client.disconnect();
  }
}
