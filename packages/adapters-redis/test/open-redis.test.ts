import { randomBytes } from 'node:crypto';
import { openRedisLimiter, type OpenRedisLimiter } from '@plantstore/adapters-redis';
import { Redis } from 'ioredis';
import { freePort } from '../../../test-support/free-port.mjs';
import { REDIS_URL, redisAvailable } from '../../../test-support/redis.js';
import { redisServerPresent, startRedisProcess, type RedisProcess } from '../../../test-support/redis-process.js';
import { collectNestWarnings } from './support/nest-warnings.js';
import { until } from './support/until.js';

const NOT_COUNTED = { hits: 0, blockedForSeconds: 0 };
const UNAVAILABLE = 'rate-limit counters unavailable, not limiting until Redis answers again';
const BACK = 'rate-limit counters reachable again: limiting resumed';

// Without Redis (or redis-server) these are listed among the skipped at the end of the run; in CI they fail.
const describeWithRedis = (await redisAvailable('the Redis limiter counting in a shared Redis (adapters-redis)'))
  ? describe
  : describe.skip;

const warnings = collectNestWarnings();
let limiter: OpenRedisLimiter | undefined;
beforeEach(() => {
  warnings.lines.length = 0;
});
afterEach(() => {
  limiter?.close();
  limiter = undefined;
});
afterAll(() => warnings.release());

describeWithRedis('openRedisLimiter on the shared Redis', () => {
  const key = `test-${randomBytes(6).toString('hex')}`;
  let inspector: Redis;

  beforeAll(() => {
    inspector = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    const keys = await inspector.keys(`plantstore:limit:${key}*`);
    if (keys.length > 0) await inspector.del(...keys);
    inspector.disconnect();
  });

  it('counts under plantstore:limit: on a connection of its own, which close() ends', async () => {
    limiter = await openRedisLimiter({ url: REDIS_URL, timeoutMs: 2_000 });
    expect(await limiter.storage.hit(key, 60_000, 5, 60_000)).toEqual({ hits: 1, blockedForSeconds: 0 });
    expect(await inspector.get(`plantstore:limit:${key}:hits`)).toBe('1');

    limiter.close();
    // Closed, it counts nothing and throws nothing: the limits fail open, once warned.
    expect(await limiter.storage.hit(key, 60_000, 5, 60_000)).toEqual(NOT_COUNTED);
    expect(await inspector.get(`plantstore:limit:${key}:hits`)).toBe('1');
    expect(limiter.storage.status.available).toBe(false);
  });
});

describe('openRedisLimiter when Redis is unreachable', () => {
  it('fails open: counts nothing, throws nothing, warns once, and skips Redis until the next probe', async () => {
    const nothingListens = `redis://127.0.0.1:${await freePort()}`;
    limiter = await openRedisLimiter({ url: nothingListens, timeoutMs: 200, retryIntervalMs: 60_000 });
    const { storage } = limiter;
    expect(await storage.hit('refused', 60_000, 1, 60_000)).toEqual(NOT_COUNTED);
    expect(await until(() => !storage.status.available)).toBe(true);
    const failuresBefore = storage.status.failures;

    // While it is down, requests do not call Redis at all: no failure is added, none is limited.
    const records = [];
    for (let i = 0; i < 5; i++) records.push(await storage.hit('refused', 60_000, 1, 60_000));
    expect(records).toEqual(Array(5).fill(NOT_COUNTED));
    expect(storage.status).toEqual({ available: false, failures: failuresBefore });

    // The client keeps trying to reconnect meanwhile; each refusal is the same outage, not another warning.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(warnings.lines.filter((line) => line.startsWith(UNAVAILABLE))).toHaveLength(1);
  });
});

const describeWithRedisServer = redisServerPresent('the Redis limiter through a Redis outage (adapters-redis)')
  ? describe
  : describe.skip;

/* A Redis of the test's own, stopped or frozen: what the limiter does through an outage and after it. */
describeWithRedisServer('openRedisLimiter through a Redis outage', () => {
  let redis: RedisProcess | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it('after Redis stopped and started again, counts again by itself, with one warning each way', async () => {
    redis = await startRedisProcess();
    const port = Number(new URL(redis!.url).port);
    limiter = await openRedisLimiter({ url: redis!.url, timeoutMs: 500, retryIntervalMs: 100 });
    const { storage } = limiter;
    expect(await storage.hit('outage', 60_000, 10, 60_000)).toMatchObject({ hits: 1 });

    await redis!.stop();
    expect(await until(async () => (await storage.hit('outage', 60_000, 10, 60_000)).hits === 0)).toBe(true);
    expect(storage.status.available).toBe(false);

    // A fresh Redis on the same port (its counts start again): the client reconnects, counting resumes.
    redis = await startRedisProcess(port);
    expect(await until(async () => (await storage.hit('outage', 60_000, 10, 60_000)).hits > 0)).toBe(true);
    expect(storage.status.available).toBe(true);
    expect(warnings.lines.filter((line) => line.startsWith(UNAVAILABLE))).toHaveLength(1);
    expect(warnings.lines.filter((line) => line === BACK)).toHaveLength(1);
  });

  it('when Redis goes silent, gives up on a call at its deadline, then skips Redis until a probe is answered', async () => {
    redis = await startRedisProcess();
    limiter = await openRedisLimiter({ url: redis!.url, timeoutMs: 200, retryIntervalMs: 300 });
    const { storage } = limiter;
    expect(await storage.hit('silent', 60_000, 10, 60_000)).toEqual({ hits: 1, blockedForSeconds: 0 });

    redis!.freeze();
    expect(await storage.hit('silent', 60_000, 10, 60_000)).toEqual(NOT_COUNTED);
    expect(storage.status).toEqual({ available: false, failures: 1 });
    // The calls that follow do not wait on the silent Redis: they skip it, and fail nothing.
    expect(await storage.hit('silent', 60_000, 10, 60_000)).toEqual(NOT_COUNTED);
    expect(storage.status.failures).toBe(1);

    redis!.thaw();
    // The first probe after the retry interval is answered and counting resumes. The call that
    // missed its deadline reached Redis all the same: it counted when Redis woke up.
    let resumed = NOT_COUNTED;
    expect(await until(async () => (resumed = await storage.hit('silent', 60_000, 10, 60_000)).hits > 0)).toBe(true);
    expect(resumed).toEqual({ hits: 3, blockedForSeconds: 0 });
    expect(storage.status.available).toBe(true);
    expect(warnings.lines).toEqual([expect.stringContaining(UNAVAILABLE), BACK]);
  });
});
