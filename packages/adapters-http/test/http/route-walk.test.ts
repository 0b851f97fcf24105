import type { FastifyInstance, HTTPMethods } from 'fastify';
import { routeDocsPageAlias } from '../../src/openapi/docs-page-alias.js';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface RegisteredRoute {
  /** As registered, e.g. `/plants/:id`. */
  readonly template: string;
  readonly methods: readonly string[];
}

/**
 * The routes the router holds, read from its own listing (`printRoutes` without common
 * prefixes: one line per path segment, indented under its parent, methods in parentheses), so
 * that a route added later is walked without touching this test.
 */
function registeredRoutes(fastify: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const pathAtDepth: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^(.*?)[└├]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (node === null) continue;
    const depth = node[1]!.length / 4;
    const path = (depth === 0 ? '' : pathAtDepth[depth - 1]!) + node[2]!;
    pathAtDepth[depth] = path;
    if (node[3] !== undefined) routes.push({ template: path, methods: node[3].split(', ') });
  }
  return routes;
}

/** A path the template matches: each parameter given a plain value. */
const pathOf = (template: string): string => template.replace(/:[A-Za-z0-9_]+/g, '1');

/** The same path with every parameter left empty (`/plants/`, `/docs/`). */
const emptyParametersOf = (template: string): string => template.replace(/:[A-Za-z0-9_]+/g, '');

const sameMethods = (allow: string, methods: readonly string[]): boolean =>
  allow.split(', ').sort().join() === [...methods].sort().join();

describe('every route under every method', () => {
  let t: HttpTestApp;
  let routes: RegisteredRoute[];
  beforeAll(async () => {
    t = await startHttpTestApp();
    routes = registeredRoutes(t.app.getHttpAdapter().getInstance());
  });
  afterAll(() => t.app.close());

  const answer = (method: HTTPMethods, url: string) => t.app.getHttpAdapter().getInstance().inject({ method, url });

  it('reads the routes the app registers', () => {
    // The walk below is only as good as this listing: it holds the create and the docs asset route.
    expect(routes).toEqual(
      expect.arrayContaining([
        { template: '/plants', methods: expect.arrayContaining(['POST', 'GET', 'HEAD']) as unknown },
        { template: '/docs/:asset', methods: ['GET', 'HEAD'] },
      ]),
    );
  });

  it('answers a registered method without 405, and any other with 405 whose Allow lists the route’s methods', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const path = pathOf(route.template);
      for (const method of METHODS) {
        const response = await answer(method, path);
        const allow = response.headers.allow;
        const registered = route.methods.includes(method);
        const seen = `${method} ${path}: ${response.statusCode} Allow: ${String(allow)}`;
        if (registered && response.statusCode === 405) wrong.push(seen);
        if (!registered && (response.statusCode !== 405 || !sameMethods(String(allow), route.methods)))
          wrong.push(seen);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never answers 405 with an Allow that lists the method used, with a trailing slash or without', async () => {
    const wrong: string[] = [];
    for (const route of routes)
      for (const path of [pathOf(route.template), `${pathOf(route.template)}/`, emptyParametersOf(route.template)])
        for (const method of METHODS) {
          const response = await answer(method, path);
          const allowed = String(response.headers.allow ?? '').split(', ');
          if (response.statusCode === 405 && allowed.includes(method))
            wrong.push(`${method} ${path}: 405 Allow: ${allowed.join(', ')}`);
        }
    expect(wrong).toEqual([]);
  });

  it('serves the docs page at /docs/ as at /docs, and refuses other methods there with 405', async () => {
    const page = await answer('GET', '/docs');
    for (const url of ['/docs/', '/docs/?x=1']) {
      const response = await answer('GET', url);
      expect([response.statusCode, response.headers['content-type'], response.body]).toEqual([
        200,
        'text/html; charset=utf-8',
        page.body,
      ]);
    }
    const post = await answer('POST', '/docs/');
    expect([post.statusCode, post.headers.allow, post.json()]).toEqual([
      405,
      'GET, HEAD',
      { error: 40501, message: 'POST is not allowed on /docs; allowed: GET, HEAD.' },
    ]);
  });
});

describe('the /docs/ alias', () => {
  it.each([
    ['/docs/', '/docs'],
    ['/docs/?a=b', '/docs?a=b'],
    ['/docs', '/docs'],
    ['/docs/swagger-ui.css', '/docs/swagger-ui.css'],
    ['/docs//', '/docs//'],
    ['/plants/', '/plants/'],
  ])('%s is routed as %s', (url, routed) => {
    expect(routeDocsPageAlias(url)).toBe(routed);
  });
});
