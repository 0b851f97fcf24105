import request from 'supertest';
import { postPlant } from '../support/plant-requests.js';
import { useTestApp } from '../support/test-app.js';

/** The value of one sample of the Prometheus text exposition, 0 when absent. */
function sample(metrics: string, name: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

describe('operability: metrics, request ids, logs, headers, health', () => {
  const t = useTestApp();

  const scrape = async () => {
    const res = await request(t.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  it('counts a create, a replay, a conflict and a 401, and times requests by route and status', async () => {
    const before = await scrape();
    expect((await postPlant(t.url, t.token, '{"id": 1, "name": "Fern"}')).status).toBe(200);
    expect((await postPlant(t.url, t.token, '{"id": 1, "name": "Fern"}')).status).toBe(200);
    expect((await postPlant(t.url, t.token, '{"id": 1, "name": "Other"}')).status).toBe(409);
    expect((await postPlant(t.url, undefined, '{"id": 2, "name": "Ivy"}')).status).toBe(401);
    expect((await postPlant(t.url, 'pst_unknown', '{"id": 2, "name": "Ivy"}')).status).toBe(401);
    const after = await scrape();
    const delta = (name: string) => sample(after, name) - sample(before, name);
    expect(delta('plantstore_plants_total{outcome="created"}')).toBe(1);
    expect(delta('plantstore_plants_total{outcome="replayed"}')).toBe(1);
    expect(delta('plantstore_plants_total{outcome="conflict"}')).toBe(1);
    expect(delta('plantstore_auth_failures_total{reason="missing"}')).toBe(1);
    expect(delta('plantstore_auth_failures_total{reason="malformed"}')).toBe(1);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/plants",status="200"}')).toBe(2);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/plants",status="409"}')).toBe(1);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/plants",status="401"}')).toBe(2);
    expect(after).toContain('process_cpu_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');
  });

  it('echoes a sane X-Request-Id, replaces an unsafe one, and generates one when absent', async () => {
    const kept = await request(t.url).get('/healthz').set('X-Request-Id', 'client-req.42');
    expect(kept.headers['x-request-id']).toBe('client-req.42');
    const replaced = await request(t.url).get('/healthz').set('X-Request-Id', 'bad id\twith "quotes"');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await request(t.url).get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers['x-request-id']).not.toBe(replaced.headers['x-request-id']);
  });

  it('writes one JSON line per request with method, route, path, status, latency and request id', async () => {
    await request(t.url).post('/plants?access_token=secret-in-query').set('X-Request-Id', 'log-line-check').send('{}');
    const lines = t.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'log-line-check');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', method: 'POST', route: '/plants', path: '/plants', status: 401 });
    expect(typeof lines[0].ms).toBe('number');
    expect(JSON.stringify(lines[0])).not.toContain('secret-in-query');
  });

  it('sends security headers suited to a JSON API and no X-Powered-By', async () => {
    const res = await postPlant(t.url, t.token, '{"id": 3, "name": "Mint"}');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
    const error = await request(t.url).get('/nowhere');
    expect(error.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers /healthz and /readyz without a token', async () => {
    expect((await request(t.url).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('reports not ready (503, Error body) while the database cannot answer', async () => {
    // Make the store refuse every statement: a closed DataSource is what a lost database looks like to the app.
    const probe = await request(t.url).get('/readyz');
    expect(probe.status).toBe(200);
    await t.dataSource.destroy();
    try {
      const res = await request(t.url).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 50301, message: 'The service is temporarily unavailable; retry shortly.' });
    } finally {
      await t.dataSource.initialize();
    }
    expect((await request(t.url).get('/readyz')).status).toBe(200);
  });
});
