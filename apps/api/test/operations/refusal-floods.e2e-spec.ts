import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { keepAliveAgent, postPlantVia } from '../support/http-post.js';
import { postPlant } from '../support/plant-requests.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The lines a refusal may write in a row before sampling sets in (logging/log-sampler.ts in adapters-http). */
const BURST = 10;

interface LogLine {
  level: string;
  msg: string;
  status?: number;
  reason?: string;
  unlogged?: number;
}

const logLines = (t: TestApp): LogLine[] => t.logs.lines.map((line) => JSON.parse(line) as LogLine);

async function metric(t: TestApp, name: string): Promise<number> {
  const text = (await request(t.url).get('/metrics')).text;
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** A create whose body is sent but for its last byte: the server holds it in progress. */
function heldCreate(url: string, token: string, id: number): Promise<Socket> {
  const { port } = new URL(url);
  const body = `{"id": ${id}, "name": "held ${id}"}`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, -1)}`,
      );
      resolve(socket);
    }).on('error', reject);
  });
}

describe('capacity is shared between clients', () => {
  it("one token holding its share of MAX_REQUESTS_IN_FLIGHT gets 429 42901 for more; another token's creates succeed", async () => {
    const t = await startTestApp({ MAX_REQUESTS_IN_FLIGHT: '8', MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: '4' });
    const held: Socket[] = [];
    try {
      const [greedy, other] = [await t.issueToken(), await t.issueToken()];
      for (let i = 0; i < 4; i++) held.push(await heldCreate(t.url, greedy.token, 1_000 + i));

      // Until the server has all four in progress, a whole create of the greedy token is still admitted.
      let refused: Awaited<ReturnType<typeof postPlant>> | undefined;
      for (let attempt = 0; attempt < 100 && refused === undefined; attempt++) {
        const answer = await postPlant(t.url, greedy.token, `{"id": ${attempt + 1}, "name": "one more"}`);
        if (answer.status === 429) refused = answer;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(refused?.body).toEqual({
        error: 42901,
        message:
          'This client already has its share of the requests in progress; finish those, or retry after the time in the Retry-After header.',
      });
      expect(refused?.headers['retry-after']).toBe('1');
      expect(refused?.headers['connection']).toBe('close');

      // Meanwhile another client is served: every one of its creates succeeds.
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++)
        statuses.push((await postPlant(t.url, other.token, `{"id": ${2_000 + i}, "name": "other ${i}"}`)).status);
      expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
      expect(await metric(t, 'plantstore_requests_over_client_share_total')).toBeGreaterThanOrEqual(1);
    } finally {
      held.forEach((socket) => socket.destroy());
      await t.close();
    }
  });
});

describe('refusals a client can repeat at will are logged sampled, and counted every one', () => {
  const REFUSALS = 3_000;

  it(`${REFUSALS} requests refused by the failed-authentication throttle write a burst of lines, then one a second at most`, async () => {
    const t = await startTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '5', LOG_LEVEL: 'info' });
    const agent = keepAliveAgent(8);
    try {
      const started = performance.now();
      const statuses = new Map<number, number>();
      for (let sent = 0; sent < REFUSALS; sent += 100) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, () => postPlantVia(agent, t.url, 'pst_guess', '{"id": 1, "name": "x"}')),
        );
        for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      const seconds = (performance.now() - started) / 1000;
      expect(Object.fromEntries(statuses)).toEqual({ 401: 5, 429: REFUSALS - 5 });

      // Every refusal is in the metrics ...
      // (the sixth guess is counted as the failure that starts the block, the later ones as throttled).
      const metrics = (await request(t.url).get('/metrics')).text;
      const counted = [...metrics.matchAll(/^plantstore_auth_failures_total\{reason="\w+"\} (\d+)$/gm)];
      expect(counted.reduce((sum, match) => sum + Number(match[1]), 0)).toBe(REFUSALS);
      // ... but the log has a burst of each kind, then at most one a second, each saying how many it stands for.
      const lines = logLines(t);
      const refusedLines = lines.filter((line) => line.msg === 'authentication refused');
      const throttledLines = lines.filter((line) => line.msg === 'request completed' && line.status === 429);
      const bound = BURST + Math.ceil(seconds) + 1;
      expect(refusedLines.filter((line) => line.reason === 'throttled').length).toBeLessThanOrEqual(bound);
      expect(throttledLines.length).toBeLessThanOrEqual(bound);
      expect(refusedLines.length + throttledLines.length).toBeLessThan(100);
      const accounted = throttledLines.reduce((sum, line) => sum + 1 + (line.unlogged ?? 0), 0);
      expect(accounted).toBeLessThanOrEqual(REFUSALS - 5);
      expect(accounted).toBeGreaterThan(0);
    } finally {
      agent.destroy();
      await t.close();
    }
  }, 120_000);
});
