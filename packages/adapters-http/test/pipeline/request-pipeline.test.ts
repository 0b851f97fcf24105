import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

const OVER_LIMIT = 1024;
const oversizeInvalidJson = `{"id": ${'9'.repeat(OVER_LIMIT)}`;

interface Sent {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly url?: string;
  readonly token?: string;
  readonly contentType?: string;
  readonly body?: string;
}

async function send(app: NestFastifyApplication, sent: Sent): Promise<{ status: number; code: unknown }> {
  const response = await app.inject({
    method: sent.method ?? 'POST',
    url: sent.url ?? '/plants',
    headers: {
      ...(sent.token === undefined ? {} : { authorization: `Bearer ${sent.token}` }),
      ...(sent.contentType === undefined ? {} : { 'content-type': sent.contentType }),
    },
    ...(sent.body === undefined ? {} : { payload: sent.body }),
  });
  return { status: response.statusCode, code: response.json<{ error?: unknown }>().error };
}

describe('the request pipeline answers with the first check a request fails (docs/http-api.md#order-of-checks)', () => {
  let t: HttpTestApp;
  let write: string;
  let read: string;

  beforeAll(async () => {
    t = await startHttpTestApp({ http: { bodyLimitBytes: OVER_LIMIT } });
    write = await t.token(['plants:write']);
    read = await t.token(['plants:read']);
    await t.app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
      payload: '{"id": 1, "name": "Fern"}',
    });
  });
  afterAll(() => t.app.close());

  // Each request also fails every check after the one that must answer it.
  it.each<[string, () => Sent, number, number]>([
    ['routing before authentication', () => ({ url: '/plantz', contentType: 'text/plain', body: 'x' }), 404, 40401],
    ['the method before authentication', () => ({ method: 'DELETE', contentType: 'text/plain' }), 405, 40501],
    [
      'authentication before the media type, the size and the body',
      () => ({ contentType: 'text/plain', body: oversizeInvalidJson }),
      401,
      40101,
    ],
    [
      'a refused token before the media type',
      () => ({ token: `${write}x`, contentType: 'text/plain', body: 'x' }),
      401,
      40102,
    ],
    [
      'the scope before the media type and the size',
      () => ({ token: read, contentType: 'text/plain', body: oversizeInvalidJson }),
      403,
      40301,
    ],
    [
      'the media type before the size',
      () => ({ token: write, contentType: 'text/plain', body: oversizeInvalidJson }),
      415,
      41501,
    ],
    [
      'the size before the JSON syntax',
      () => ({ token: write, contentType: 'application/json', body: oversizeInvalidJson }),
      413,
      41301,
    ],
    [
      'the JSON syntax before the shape',
      () => ({ token: write, contentType: 'application/json', body: '[1,' }),
      400,
      40001,
    ],
    [
      'the shape before the field rules',
      () => ({ token: write, contentType: 'application/json', body: '[{"id": "x"}]' }),
      400,
      40002,
    ],
    [
      'the field rules before the store',
      () => ({ token: write, contentType: 'application/json', body: '{"id": 1, "name": ""}' }),
      400,
      40003,
    ],
    [
      'the store last',
      () => ({ token: write, contentType: 'application/json', body: '{"id": 1, "name": "Moss"}' }),
      409,
      40901,
    ],
    ['the reads: authentication before the parameters', () => ({ method: 'GET', url: '/plants/x' }), 401, 40101],
    [
      'the reads: the scope before the parameters',
      () => ({ method: 'GET', url: '/plants/x', token: write }),
      403,
      40301,
    ],
    [
      'the reads: the parameters before the store',
      () => ({ method: 'GET', url: '/plants/01', token: read }),
      400,
      40004,
    ],
    ['the reads: the store last', () => ({ method: 'GET', url: '/plants/2', token: read }), 404, 40402],
  ])('%s', async (_case, request, status, code) => {
    expect(await send(t.app, request())).toEqual({ status, code });
  });

  it("checks the token's rate budget after the scope and before the body", async () => {
    const limited = await startHttpTestApp({ http: { rateLimitPerMinute: 1 } });
    try {
      const token = await limited.token(['plants:write', 'plants:read']);
      const reader = await limited.token(['plants:read']);
      expect(await send(limited.app, { token, contentType: 'text/plain' })).toEqual({ status: 415, code: 41501 });
      expect(await send(limited.app, { token, contentType: 'text/plain' })).toEqual({ status: 429, code: 42901 });
      // A request refused by the scope spends nothing: the budget is counted after it.
      expect(await send(limited.app, { token: reader, contentType: 'text/plain' })).toEqual({
        status: 403,
        code: 40301,
      });
      expect(await send(limited.app, { token: reader, method: 'GET', url: '/plants/x' })).toEqual({
        status: 400,
        code: 40004,
      });
    } finally {
      await limited.app.close();
    }
  });
});

describe('an app that only imports the HTTP module', () => {
  // startHttpTestApp does nothing besides importing the module: the pipeline comes with it.
  it('authenticates every route, answers unknown methods with Allow, and sends the security headers', async () => {
    const t = await startHttpTestApp();
    try {
      const unauthenticated = await t.app.inject({ method: 'GET', url: '/plants/1' });
      expect([unauthenticated.statusCode, unauthenticated.json<{ error: number }>().error]).toEqual([401, 40101]);
      const wrongMethod = await t.app.inject({ method: 'PATCH', url: '/plants' });
      expect([wrongMethod.statusCode, wrongMethod.headers['allow']]).toEqual([405, 'GET, HEAD, POST']);
      expect(unauthenticated.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await t.app.close();
    }
  });
});
