import request from 'supertest';
import { postPlant } from '../support/plant-requests.js';
import { startRedisProcess, type RedisProcess } from '../support/redis-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const UNAVAILABLE = 'rate-limit counters unavailable';
const RESUMED = 'rate-limit counters reachable again';

/**
 * A Redis that accepts connections but never answers (a stopped process, a black-holed path)
 * must not hold requests: each Redis call has a deadline (REDIS_TIMEOUT_MS), after which the
 * limits fail open, and while Redis stays silent requests skip it entirely.
 */
describe('a frozen Redis behind the rate limits', () => {
  let redis: RedisProcess | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    redis = await startRedisProcess();
    if (redis === undefined) return;
    // 200 ms rather than the default 50: still a bound (the old hang was ~35 s), with room for a loaded CI machine.
    t = await startTestApp({ REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '1000', REDIS_TIMEOUT_MS: '200' });
  });

  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  const warnings = (text: string) => t!.logs.lines.filter((line) => line.includes(text));
  const metric = async (name: string) => {
    const body = (await request(t!.url).get('/metrics')).text;
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(body)?.[1]);
  };

  it('keeps creates and refusals flowing with bounded latency, says so once, and limits again once Redis answers', async () => {
    if (redis === undefined || t === undefined) return;
    const { id, token } = await t.issueToken();
    const hitsKey = `plantstore:limit:token:${id}:hits`;
    // Until the app's Redis connection is up, creates are served but not counted (fail open): wait for the first count.
    for (let i = 0; i < 50 && (await redis.client.get(hitsKey)) === null; i++) {
      expect((await postPlant(t.url, token, `{"id": ${i}, "name": "before"}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const before = Number(await redis.client.get(hitsKey));
    expect(before).toBeGreaterThan(0);
    expect((await postPlant(t.url, token, '{"id": 99, "name": "before"}')).status).toBe(200);
    expect(Number(await redis.client.get(hitsKey))).toBe(before + 1);
    expect(await metric('plantstore_rate_limit_store_up')).toBe(1);

    // A warning pair may already have come from the start, before the app's connection was up.
    const [unavailableBefore, resumedBefore] = [warnings(UNAVAILABLE).length, warnings(RESUMED).length];
    redis.freeze();
    const latencies: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      statuses.push((await postPlant(t.url, token, `{"id": ${100 + i}, "name": "during"}`)).status);
      statuses.push((await postPlant(t.url, 'pst_not-a-real-token', '{"id": 1, "name": "x"}')).status);
      latencies.push(performance.now() - started);
    }
    console.log(
      `frozen Redis: 20 create + refused pairs, slowest pair ${Math.max(...latencies).toFixed(0)} ms, median ${latencies.sort((a, b) => a - b)[10]!.toFixed(0)} ms`,
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => [200, 401]).flat());
    // Without a deadline each request waited ~35 s and then lost its connection.
    expect(Math.max(...latencies)).toBeLessThan(2_000);
    expect((await t.plants()).filter((p) => p.name === 'during')).toHaveLength(20);
    expect(warnings(UNAVAILABLE)).toHaveLength(unavailableBefore + 1);
    expect(warnings(UNAVAILABLE).at(-1)).toMatch(/"level":(40|"warn")/);
    expect(await metric('plantstore_rate_limit_store_up')).toBe(0);
    expect(await metric('plantstore_rate_limit_store_failures_total')).toBeGreaterThanOrEqual(1);
    // /healthz does not depend on Redis.
    expect((await request(t.url).get('/healthz')).status).toBe(200);

    redis.thaw();
    // One request per second probes Redis; within a few seconds limiting is back.
    for (let i = 0; i < 50 && (await metric('plantstore_rate_limit_store_up')) !== 1; i++) {
      await postPlant(t.url, token, `{"id": ${1000 + i}, "name": "after"}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await metric('plantstore_rate_limit_store_up')).toBe(1);
    expect(warnings(RESUMED)).toHaveLength(resumedBefore + 1);
    const counted = Number(await redis.client.get(hitsKey));
    expect((await postPlant(t.url, token, '{"id": 5000, "name": "counted"}')).status).toBe(200);
    expect(Number(await redis.client.get(hitsKey))).toBe(counted + 1);
    expect(warnings(UNAVAILABLE)).toHaveLength(unavailableBefore + 1);
  });
});
