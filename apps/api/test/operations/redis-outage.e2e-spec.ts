import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { postPlant } from '../support/plant-requests.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { startRedisProcess, type RedisProcess } from '../../../../test-support/redis-process.js';
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
    // The app started once its Redis connection was up: the first create is counted, and no outage was logged.
    expect((await postPlant(t.url, token, '{"id": 98, "name": "before"}')).status).toBe(200);
    expect(await redis.client.get(hitsKey)).toBe('1');
    expect((await postPlant(t.url, token, '{"id": 99, "name": "before"}')).status).toBe(200);
    expect(await redis.client.get(hitsKey)).toBe('2');
    expect(await metric('plantstore_rate_limit_store_up')).toBe(1);
    const [unavailableBefore, resumedBefore] = [warnings(UNAVAILABLE).length, warnings(RESUMED).length];
    expect([unavailableBefore, resumedBefore]).toEqual([0, 0]);
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

/**
 * A Redis that refuses connections (stopped, restarting): the client's reconnect attempts fail
 * again and again. The built server, as an operator runs it: every line it writes is one JSON
 * object, and the outage is one warning when it starts and one when it ends.
 */
describe('a Redis refusing connections behind the built server', () => {
  let redis: RedisProcess | undefined;
  let server: BuiltServer | undefined;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-redis-refused-'));
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every line written so far, each parsed as one JSON object (JSON.parse throws on a stack frame). */
  const lines = () =>
    [server!.stdout(), server!.stderr()]
      .join('\n')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { level: string; msg: string });
  const said = (text: string) => lines().filter((line) => line.msg.includes(text));

  it('writes only JSON lines while Redis refuses, one warning when it goes and one when it is back', async () => {
    redis = await startRedisProcess();
    if (redis === undefined) return;
    const port = Number(new URL(redis.url).port);
    const databaseUrl = `sqlite:${join(dir, 'plantstore.sqlite')}`;
    const { token } = await createTokenWithCli(databaseUrl, 'redis-refused', ['plants:write']);
    server = await startBuiltServer({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '1000',
      LOG_LEVEL: 'info',
    });

    await redis.stop();
    // Three seconds of refused reconnects (ioredis retries every few hundred ms), creates served meanwhile.
    const until = Date.now() + 3_000;
    for (let i = 0; Date.now() < until; i++) {
      expect((await postPlant(server.url, token, `{"id": ${i}, "name": "during"}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(said(UNAVAILABLE)).toHaveLength(1);
    expect(said(UNAVAILABLE)[0]).toMatchObject({ level: 'warn' });

    redis = await startRedisProcess(port);
    for (let i = 0; i < 100 && said(RESUMED).length === 0; i++) {
      await postPlant(server.url, token, `{"id": ${1000 + i}, "name": "after"}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(said(RESUMED)).toHaveLength(1);
    expect(said(UNAVAILABLE)).toHaveLength(1);
    expect(lines().some((line) => /ioredis|Unhandled/.test(JSON.stringify(line)))).toBe(false);
  }, 60_000);
});
