import { Redis } from 'ioredis';
import { reportSkipped } from '../../../../test-support/skipped.js';

export const REDIS_URL = process.env['PLANTSTORE_TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';

/**
 * Whether Redis can be used. In CI it must be (an unreachable Redis fails the run);
 * elsewhere its suites skip with one line saying how to enable them.
 */
export async function redisAvailable(): Promise<boolean> {
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
    reportSkipped(
      'limits shared by two instances through Redis',
      `start a Redis at ${REDIS_URL}, or set PLANTSTORE_TEST_REDIS_URL`,
    );
    return false;
  } finally {
    client.disconnect();
  }
}
