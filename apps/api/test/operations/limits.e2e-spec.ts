import request from 'supertest';
import { TOKEN_PREFIX } from '@plantstore/domain';
import { Redis } from 'ioredis';
import { postPlant } from '../support/plant-requests.js';
import { redisAvailable, REDIS_URL } from '../../../../test-support/redis.js';
import { startTestApp, startTestAppOn, type TestApp } from '../support/test-app.js';

const RATE_LIMITED = {
  error: 42901,
  message: 'This token has used up its request budget for now; retry after the time in the Retry-After header.',
};

describe('limits', () => {
  it('per-token rate limit, in memory: the budget is per token and refusals carry Retry-After', async () => {
    const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const [a, b] = [await t.issueToken(), await t.issueToken()];
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await postPlant(t.url, a.token, `{"id": ${i}, "name": "p${i}"}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await postPlant(t.url, a.token, '{"id": 99, "name": "late"}');
      expect(refused.body).toEqual(RATE_LIMITED);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await postPlant(t.url, b.token, '{"id": 100, "name": "other token"}')).status).toBe(200);
      expect((await t.plants()).map((p) => p.id)).toEqual(['0', '1', '100', '2']);
    } finally {
      await t.close();
    }
  });

  it('throttles failed authentication per client address, whatever the next token is', async () => {
    const t = await startTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
    try {
      const { token } = await t.issueToken();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postPlant(t.url, 'pst_guess', '{"id": 1, "name": "x"}')).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // Blocked: even a valid token is refused, so a 429 says nothing about a guess.
      const blocked = await postPlant(t.url, token, '{"id": 1, "name": "x"}');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe(42901);
      expect(blocked.headers['retry-after']).toBeDefined();
      // Public endpoints stay reachable.
      expect((await request(t.url).get('/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('with REDIS_URL, two instances share one per-token budget', async () => {
    if (!(await redisAvailable())) return;
    // A generous deadline: this is about sharing the budget, not about a slow Redis (redis-outage).
    const first = await startTestApp({ RATE_LIMIT_PER_MINUTE: '4', REDIS_URL, REDIS_TIMEOUT_MS: '2000' });
    let second: TestApp | undefined;
    try {
      // The second instance shares the first one's database, as instances behind a load balancer do.
      second = await startTestAppOn(first.database, {
        RATE_LIMIT_PER_MINUTE: '4',
        REDIS_URL,
        REDIS_TIMEOUT_MS: '2000',
      });
      const { id, token } = await first.issueToken();
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const url = i % 2 === 0 ? first.url : second.url;
        statuses.push((await postPlant(url, token, `{"id": ${i}, "name": "p${i}"}`)).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(4);
      expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
      expect(await first.plants()).toHaveLength(4);

      // Redis is shared infrastructure: the counters are named by the token's id, never by the token.
      const inspector = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
      try {
        const keys = await inspector.keys('plantstore:limit:*');
        expect(keys).toContain(`plantstore:limit:token:${id}:hits`);
        const secret = token.slice(TOKEN_PREFIX.length);
        expect(keys.filter((key) => key.includes(token) || key.includes(secret))).toEqual([]);
      } finally {
        inspector.disconnect();
      }
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
