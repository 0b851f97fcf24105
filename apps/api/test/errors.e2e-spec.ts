import request from 'supertest';
import { postPlant, JSON_UTF8 } from './support/plant-requests.js';
import { rawRequest } from './support/raw-http.js';
import { lockPlantsElsewhere } from './support/store-lock.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

describe.each(testEngines())('every failure is the Error body with a catalogued code ($name)', (engine) => {
  const t = useTestApp(
    {
      BODY_LIMIT_BYTES: '1024',
      REQUEST_TIMEOUT_MS: '1000',
      SQLITE_BUSY_TIMEOUT_MS: '200',
      PG_STATEMENT_TIMEOUT_MS: '300',
    },
    engine,
  );

  describe('routing comes first, with or without a token', () => {
    it.each([undefined, 'valid'])('404/40401 for an unknown path (token: %s)', async (withToken) => {
      let call = request(t.url).get('/unknown');
      if (withToken) call = call.set('Authorization', `Bearer ${t.token}`);
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual({
        error: 40401,
        message:
          'No such route. The API serves POST and GET /plants, GET /plants/changes, and GET, PUT and DELETE /plants/{id}.',
      });
    });

    it.each(['put', 'delete', 'patch'] as const)(
      '405/40501 with Allow: GET, HEAD, POST for %s /plants',
      async (method) => {
        const res = await request(t.url)[method]('/plants').set('Authorization', 'Bearer nonsense');
        expect(res.status).toBe(405);
        expect(res.headers['allow']).toBe('GET, HEAD, POST');
        expect(res.headers['content-type']).toBe(JSON_UTF8);
        expect(res.body).toEqual({
          error: 40501,
          message: `${method.toUpperCase()} is not allowed on /plants; allowed: GET, HEAD, POST.`,
        });
      },
    );

    it.each([
      ['post', '/plants/1'],
      ['patch', '/plants/-9223372036854775808'],
      ['post', '/plants/007'],
      ['post', '/plants/'],
    ] as const)(
      '405/40501 with Allow: GET, HEAD, PUT, DELETE for %s %s, naming the route, not the path',
      async (method, path) => {
        const res = await request(t.url)[method](path).set('Authorization', `Bearer ${t.token}`);
        expect(res.status).toBe(405);
        expect(res.headers['allow']).toBe('GET, HEAD, PUT, DELETE');
        expect(res.body).toEqual({
          error: 40501,
          message: `${method.toUpperCase()} is not allowed on /plants/{id}; allowed: GET, HEAD, PUT, DELETE.`,
        });
      },
    );

    it('404/40401 for a path deeper under /plants', async () => {
      const res = await request(t.url).get('/plants/1/2').set('Authorization', `Bearer ${t.token}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(40401);
    });
  });

  describe('media type and size, after authentication', () => {
    it('415/41501 without a Content-Type', async () => {
      // keepOpen: Node's HTTP server drops a request whose client half-closes before the answer,
      // which happens whenever authentication waits on a networked database (PostgreSQL).
      const res = await rawRequest(
        t.url,
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.token}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        { keepOpen: true },
      );
      expect(res.status).toBe(415);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(JSON.parse(res.body)).toEqual({
        error: 41501,
        message: 'Send the body as JSON with "Content-Type: application/json".',
      });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'])(
      '415/41501 for %s',
      async (type) => {
        const res = await request(t.url)
          .post('/plants')
          .set('Authorization', `Bearer ${t.token}`)
          .set('Content-Type', type)
          .send('{"id": 1, "name": "a"}');
        expect(res.status).toBe(415);
        expect(res.body.error).toBe(41501);
      },
    );

    it('accepts application/json with charset=utf-8 and +json types', async () => {
      for (const [type, id] of [
        ['application/json; charset=UTF-8', 11],
        ['application/merge-patch+json', 12],
      ] as const) {
        const res = await request(t.url)
          .post('/plants')
          .set('Authorization', `Bearer ${t.token}`)
          .set('Content-Type', type)
          .send(`{"id": ${id}, "name": "a"}`);
        expect(res.status).toBe(200);
      }
      await t.dataSource.query('DELETE FROM plant');
    });

    it('413/41301 for a declared body over the limit, whatever it contains', async () => {
      const res = await postPlant(t.url, t.token, `{"id": 1, "name": "${'x'.repeat(2000)}"}`);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 41301, message: 'The request body is larger than the limit of 1024 bytes.' });
    });

    it('413/41301 for a chunked body that grows over the limit', async () => {
      const chunk = 'x'.repeat(600);
      const res = await rawRequest(
        t.url,
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
          `258\r\n${chunk}\r\n258\r\n${chunk}\r\n0\r\n\r\n`,
        { keepOpen: true }, // the server closes after its 413; see the 415 test for why we do not half-close
      );
      expect(res.status).toBe(413);
      expect(res.headers['connection']).toBe('close');
      expect(JSON.parse(res.body).error).toBe(41301);
    });
  });

  describe('errors of the HTTP parser', () => {
    it('400/40000 for bytes that are not HTTP', async () => {
      const res = await rawRequest(t.url, 'HELLO\r\n\r\n');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(JSON.parse(res.body)).toEqual({ error: 40000, message: 'The HTTP request is malformed.' });
    });

    it('431/43101 for headers over the size limit', async () => {
      const res = await rawRequest(t.url, `GET /plants HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toEqual({ error: 43101, message: 'The request headers are too large.' });
    });

    it('408/40801 for a client that does not finish its request in time', async () => {
      const res = await rawRequest(
        t.url,
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":`,
        { keepOpen: true, timeoutMs: 10_000 },
      );
      expect(res.status).toBe(408);
      expect(JSON.parse(res.body)).toEqual({
        error: 40801,
        message: 'The request took too long to arrive; send it again.',
      });
    });
  });

  describe('store failures', () => {
    // The store's wait limit: SQLITE_BUSY_TIMEOUT_MS on SQLite, PG_STATEMENT_TIMEOUT_MS on PostgreSQL.
    it('503/50301 while another client locks the plants beyond the wait limit, then recovers', async () => {
      const lock = await lockPlantsElsewhere(t);
      try {
        const res = await postPlant(t.url, t.token, '{"id": 77, "name": "locked out"}');
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toEqual({
          error: 50301,
          message: 'The plant store is temporarily unavailable; retry shortly.',
        });
      } finally {
        await lock.release();
      }
      expect((await postPlant(t.url, t.token, '{"id": 77, "name": "after the lock"}')).status).toBe(200);
      expect(await t.plants()).toEqual([{ id: '77', name: 'after the lock', tag: null }]);
      await t.dataSource.query('DELETE FROM plant');
    });

    it('500/50001 for an unexpected failure, without SQL or stack in the body', async () => {
      await t.dataSource.query('ALTER TABLE plant RENAME TO plant_away');
      try {
        const res = await postPlant(t.url, t.token, '{"id": 78, "name": "nowhere"}');
        expect(res.status).toBe(500);
        expect(res.headers['content-type']).toBe(JSON_UTF8);
        expect(res.body).toEqual({
          error: 50001,
          message: 'An unexpected error occurred; it has been logged. Retry later or contact the operator.',
        });
      } finally {
        await t.dataSource.query('ALTER TABLE plant_away RENAME TO plant');
      }
    });
  });
});
