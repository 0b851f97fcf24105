import { Failures } from '../../src/errors/failures.js';
import { OpenApiDocumentStore, type OpenApiDocumentBuilder } from '../../src/openapi/openapi.controller.js';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

/**
 * GET /openapi.json on a fresh app, whose document is built on this first request: the store
 * is given the builder createHttpApp gives it (openapi-document-builder.ts), counted, and made
 * to fail on demand.
 */
describe('the OpenAPI document, built on its first request', () => {
  let t: HttpTestApp;
  let loads: number;
  let builds: number;
  let failures: number;

  beforeEach(async () => {
    t = await startHttpTestApp();
    loads = 0;
    builds = 0;
    failures = 0;
    const load = async (): Promise<OpenApiDocumentBuilder> => {
      loads += 1;
      const { buildApiDocument } = await import('../../src/openapi-document-builder.js');
      return (app) => {
        builds += 1;
        if (failures > 0) {
          failures -= 1;
          throw new Error('the build failed');
        }
        return buildApiDocument(app);
      };
    };
    t.app.get(OpenApiDocumentStore).buildFrom(t.app, load);
  });
  afterEach(() => t.app.close());

  const getDocument = () => t.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/openapi.json' });

  it('is not built before it is asked for', async () => {
    expect((await t.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(
      200,
    );
    expect([loads, builds]).toEqual([0, 0]);
  });

  it('is built once for two concurrent first requests, which both get it, as does a later one', async () => {
    const [first, second] = await Promise.all([getDocument(), getDocument()]);
    for (const response of [first, second]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    expect(second.body).toBe(first.body);
    expect(first.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Plant Store' } });
    expect([loads, builds]).toEqual([1, 1]);

    expect((await getDocument()).body).toBe(first.body);
    expect([loads, builds]).toEqual([1, 1]);
  });

  it('answers a failed build with the usual 500 Error body, and builds again on the next request', async () => {
    failures = 1;
    const failed = await getDocument();
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ error: Failures.internal.code, message: Failures.internal.message });
    expect(failed.body).not.toContain('the build failed');

    const next = await getDocument();
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ openapi: '3.1.0' });
    expect(builds).toBe(2);
  });
});
