import { randomBytes } from 'node:crypto';
import { RedisLimiterStorage } from '@plantstore/adapters-redis';
import { Redis } from 'ioredis';
import { REDIS_URL, redisAvailable } from '../../../test-support/redis.js';
import { until } from './support/until.js';

// Without a Redis the suite is listed among the skipped at the end of the run; in CI it fails.
const describeWithRedis = (await redisAvailable('the Redis limiter counting in a shared Redis (adapters-redis)'))
  ? describe
  : describe.skip;

/*
 * The counters themselves, on the machine's Redis: each run counts under a prefix of its own
 * and removes its keys, so runs and other suites sharing that Redis never see each other.
 */
describeWithRedis('RedisLimiterStorage in a shared Redis', () => {
  const prefix = `plantstore-test:${randomBytes(6).toString('hex')}:`;
  const connections: Redis[] = [];
  let inspector: Redis;

  function storage(): RedisLimiterStorage {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
    connections.push(connection);
    return new RedisLimiterStorage(connection, { retryIntervalMs: 1_000, prefix });
  }

  const keysOfThisRun = async () => (await inspector.keys(`${prefix}*`)).sort();

  beforeAll(() => {
    inspector = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    const keys = await keysOfThisRun();
    if (keys.length > 0) await inspector.del(...keys);
    for (const connection of [...connections, inspector]) connection.disconnect();
  });

  it('counts the hits of a window and blocks past the limit, for blockMs, with the seconds to wait', async () => {
    const limiter = storage();
    const records = [];
    for (let i = 0; i < 5; i++) records.push(await limiter.hit('counting', 60_000, 3, 30_000));
    expect(records).toEqual([
      { hits: 1, blockedForSeconds: 0 },
      { hits: 2, blockedForSeconds: 0 },
      { hits: 3, blockedForSeconds: 0 },
      { hits: 4, blockedForSeconds: 30 },
      { hits: 5, blockedForSeconds: 30 },
    ]);
    // The window and the block expire by themselves in Redis: nothing is left behind for ever.
    const windowLeft = await inspector.pttl(`${prefix}counting:hits`);
    const blockLeft = await inspector.pttl(`${prefix}counting:blocked`);
    expect(windowLeft).toBeGreaterThan(0);
    expect(windowLeft).toBeLessThanOrEqual(60_000);
    expect(blockLeft).toBeGreaterThan(0);
    expect(blockLeft).toBeLessThanOrEqual(30_000);
    expect(limiter.status).toEqual({ available: true, failures: 0 });
  });

  it('rounds the time left of a block up to whole seconds, so a client never retries too early', async () => {
    const limiter = storage();
    await limiter.hit('rounding', 60_000, 0, 1_200);
    const record = await limiter.hit('rounding', 60_000, 0, 1_200);
    expect(record).toEqual({ hits: 2, blockedForSeconds: 2 });
  });

  it('starts a fixed window at its first hit: once it has expired the count starts again from one', async () => {
    const limiter = storage();
    expect(await limiter.hit('window', 300, 10, 1_000)).toEqual({ hits: 1, blockedForSeconds: 0 });
    expect(await limiter.hit('window', 300, 10, 1_000)).toEqual({ hits: 2, blockedForSeconds: 0 });
    // Hits inside the window do not extend it: it ends 300 ms after the first.
    expect(await until(async () => (await inspector.exists(`${prefix}window:hits`)) === 0)).toBe(true);
    expect(await limiter.hit('window', 300, 10, 1_000)).toEqual({ hits: 1, blockedForSeconds: 0 });
  });

  it('keeps a block past the window that caused it: a new window does not lift it', async () => {
    const limiter = storage();
    await limiter.hit('block', 200, 1, 3_000);
    expect(await limiter.hit('block', 200, 1, 3_000)).toEqual({ hits: 2, blockedForSeconds: 3 });
    expect(await until(async () => (await inspector.exists(`${prefix}block:hits`)) === 0)).toBe(true);
    const inNewWindow = await limiter.hit('block', 200, 1, 3_000);
    expect(inNewWindow.hits).toBe(1);
    expect(inNewWindow.blockedForSeconds).toBeGreaterThanOrEqual(1);
  });

  it('keeps one counter per key, shared by every connection to the same Redis (every instance)', async () => {
    const first = storage();
    const second = storage();
    expect(await first.hit('shared', 60_000, 3, 60_000)).toMatchObject({ hits: 1 });
    expect(await second.hit('shared', 60_000, 3, 60_000)).toMatchObject({ hits: 2 });
    expect(await first.hit('shared', 60_000, 3, 60_000)).toMatchObject({ hits: 3 });
    expect(await second.hit('shared', 60_000, 3, 60_000)).toEqual({ hits: 4, blockedForSeconds: 60 });
    expect(await first.hit('another key', 60_000, 3, 60_000)).toEqual({ hits: 1, blockedForSeconds: 0 });
  });

  it('writes two keys per counter under its prefix, named by the key it was given and holding counts only', async () => {
    const limiter = storage();
    await limiter.hit('token:42', 60_000, 1, 60_000);
    await limiter.hit('token:42', 60_000, 1, 60_000);
    const keys = (await keysOfThisRun()).filter((key) => key.includes('token:42'));
    expect(keys).toEqual([`${prefix}token:42:blocked`, `${prefix}token:42:hits`]);
    expect(await inspector.mget(...keys)).toEqual(['1', '2']);
  });
});
