import request from 'supertest';
import { postPlant } from '../support/plant-requests.js';
import { rawRequest } from '../support/raw-http.js';
import { useTestApp } from '../support/test-app.js';

/** The value of one sample of the Prometheus text exposition, 0 when absent. */
function sample(metrics: string, name: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

const withRequestId = (call: ReturnType<typeof postPlant>, id: string) => call.set('X-Request-Id', id);

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
    const ofRequest = t.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'log-line-check');
    // The request's own line; the refusal's line (tested below) carries the reqId too.
    const lines = ofRequest.filter((l) => l.msg === 'request completed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      method: 'POST',
      route: '/plants',
      path: '/plants',
      status: 401,
    });
    expect(typeof lines[0].ms).toBe('number');
    expect(JSON.stringify(ofRequest)).not.toContain('secret-in-query');
  });

  it('writes levels as words, and every line written while handling a request carries its reqId', async () => {
    await t.dataSource.query('ALTER TABLE plant RENAME TO plant_away');
    try {
      const res = await withRequestId(postPlant(t.url, t.token, '{"id": 90, "name": "nowhere"}'), 'failing-request');
      expect(res.status).toBe(500);
    } finally {
      await t.dataSource.query('ALTER TABLE plant_away RENAME TO plant');
    }
    const lines = t.logs.lines.map((l) => JSON.parse(l));
    expect(lines.every((l) => typeof l.level === 'string')).toBe(true);
    const ofRequest = lines.filter((l) => l.reqId === 'failing-request');
    // The error filter's report of the failure and the request line, both tied to the request.
    expect(ofRequest).toEqual([
      expect.objectContaining({ level: 'error', context: 'ErrorFilter', msg: 'POST /plants failed' }),
      expect.objectContaining({ level: 'error', msg: 'request completed', status: 500 }),
    ]);
  });

  it('says why an authentication was refused and from which address, never what was sent', async () => {
    const { token: readOnly } = await t.issueToken({ scopes: ['plants:read'] });
    const refusals: Array<[string | undefined, string]> = [
      [undefined, 'missing'],
      ['pst_not-a-real-token', 'malformed'],
      [readOnly, 'insufficient_scope'],
    ];
    for (const [token, reason] of refusals) {
      const id = `refused-${reason}`;
      await withRequestId(postPlant(t.url, token, '{"id": 91, "name": "Ivy"}'), id);
      const line = t.logs.lines
        .map((l) => JSON.parse(l))
        .find((l) => l.reqId === id && l.msg === 'authentication refused');
      expect(line).toMatchObject({ level: 'warn', reason, client: '127.0.0.1' });
      if (token !== undefined) expect(JSON.stringify(line)).not.toContain(token);
    }
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

  it('sends the security headers on a refusal by the first request hooks (HTTP/1.1 without Host)', async () => {
    const res = await rawRequest(t.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
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
