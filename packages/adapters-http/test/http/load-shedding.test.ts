import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { requestingClient } from '../../src/auth/requesting-client.js';
import { installLoadShedding } from '../../src/http/load-shedding.js';
import { SAMPLED_LOG_BURST } from '../../src/logging/log-sampler.js';
import { PlantStoreMetrics } from '../../src/observability/plant-store-metrics.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, path: string, authorization?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = authorization === undefined ? {} : { authorization };
    http
      .get({ host: '127.0.0.1', port, path, agent: false, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/** A server whose framework handler holds every request until `releaseAll`, behind the shedding. */
async function heldServer(maxInFlight: number, maxInFlightPerClient = maxInFlight) {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_request, response) => {
    held.push(response);
  });
  const lines: Array<{ level: string; msg: string; fields: object }> = [];
  const log = {
    warn: (fields: object, msg: string) => lines.push({ level: 'warn', msg, fields }),
    info: (fields: object, msg: string) => lines.push({ level: 'info', msg, fields }),
  } as unknown as FastifyBaseLogger;
  const metrics = new PlantStoreMetrics();
  installLoadShedding(server, { maxInFlight, maxInFlightPerClient }, metrics, log, requestingClient);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const waitForHeld = async (count: number) => {
    while (held.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const releaseAll = () => held.splice(0).forEach((response) => response.end('done'));
  const close = () => new Promise((resolve) => server.close(resolve));
  return { port, lines, metrics, waitForHeld, releaseAll, close };
}

describe('load shedding in front of the framework', () => {
  it('answers requests past the limit with 503/50301 at once, never sheds probes, and logs one line per episode', async () => {
    const s = await heldServer(2);
    try {
      const admitted = [get(s.port, '/plants'), get(s.port, '/plants')];
      await s.waitForHeld(2);

      const shed = await Promise.all([get(s.port, '/plants'), get(s.port, '/plants?x=1'), get(s.port, '/other')]);
      for (const answer of shed) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['connection']).toBe('close');
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(answer.body)).toMatchObject({ error: 50301 });
      }
      // Probes reach the framework whatever the load.
      const probe = get(s.port, '/healthz?verbose');
      await s.waitForHeld(3);
      expect(s.lines).toEqual([
        { level: 'warn', msg: expect.stringContaining('load shedding') as string, fields: { maxInFlight: 2 } },
      ]);
      expect(await s.metrics.registry.getSingleMetricAsString('plantstore_requests_shed_total')).toMatch(/ 3$/m);

      // An episode lasts a second at least, so that a load hovering at the limit writes two lines a second at most.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      s.releaseAll();
      expect((await Promise.all([...admitted, probe])).map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(s.lines.at(-1)).toEqual({
        level: 'info',
        msg: 'load shedding ended',
        fields: { shed: 3, maxInFlight: 2 },
      });

      // Capacity is back: the next request is admitted.
      const next = get(s.port, '/plants');
      await s.waitForHeld(1);
      s.releaseAll();
      expect((await next).status).toBe(200);
      expect(s.lines).toHaveLength(2);
    } finally {
      s.releaseAll();
      await s.close();
    }
  });

  it("one client (a credential, else an address) holds at most its share: the others' requests are still admitted", async () => {
    const s = await heldServer(4, 2);
    try {
      const greedy = [get(s.port, '/plants', 'Bearer greedy'), get(s.port, '/plants', 'Bearer greedy')];
      await s.waitForHeld(2);

      // Its third is refused at once, before its body is read: 429/42901, Retry-After, close.
      const refused = await get(s.port, '/plants', 'Bearer greedy');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['connection']).toBe('close');
      expect(JSON.parse(refused.body)).toMatchObject({ error: 42901 });
      expect(await s.metrics.registry.getSingleMetricAsString('plantstore_requests_over_client_share_total')).toMatch(
        / 1$/m,
      );
      expect(await s.metrics.registry.getSingleMetricAsString('plantstore_requests_shed_total')).toMatch(/ 0$/m);

      // Another token, and a request with no token (its address), are admitted meanwhile.
      const others = [get(s.port, '/plants', 'Bearer other'), get(s.port, '/plants')];
      await s.waitForHeld(4);
      s.releaseAll();
      expect((await Promise.all([...greedy, ...others])).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

      // Its requests done, the client has its share again.
      const again = get(s.port, '/plants', 'Bearer greedy');
      await s.waitForHeld(1);
      s.releaseAll();
      expect((await again).status).toBe(200);
    } finally {
      s.releaseAll();
      await s.close();
    }
  });

  it('writes at most one line a second for refusals over a client share, and counts every one', async () => {
    const s = await heldServer(4, 1);
    try {
      const held = get(s.port, '/plants');
      await s.waitForHeld(1);
      const refused = await Promise.all(Array.from({ length: 200 }, () => get(s.port, '/plants')));
      expect(refused.every((answer) => answer.status === 429)).toBe(true);
      expect(await s.metrics.registry.getSingleMetricAsString('plantstore_requests_over_client_share_total')).toMatch(
        / 200$/m,
      );
      // 200 refusals within a few seconds at most: a burst of lines, then one a second.
      expect(s.lines.length).toBeGreaterThanOrEqual(1);
      expect(s.lines.length).toBeLessThanOrEqual(SAMPLED_LOG_BURST + 5);
      s.releaseAll();
      await held;
    } finally {
      s.releaseAll();
      await s.close();
    }
  });

  it('refuses to wrap a server that has no single framework listener', () => {
    const log = { warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
    const limits = { maxInFlight: 1, maxInFlightPerClient: 1 };
    expect(() =>
      installLoadShedding(http.createServer(), limits, new PlantStoreMetrics(), log, requestingClient),
    ).toThrow(/one request listener/);
  });
});
