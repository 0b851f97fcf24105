import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebPageModule } from '../../src/web/web-page.module.js';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

const INDEX = '<!doctype html><title>Plant Store</title><script type="module" src="/assets/page-ABC123.js"></script>';
const SCRIPT = 'document.title = "Plant Store";';
const JSON_UTF8 = 'application/json; charset=utf-8';

/** A built page as apps/web writes it: index.html and content-hashed assets. */
function builtPage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-web-page-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets/page-ABC123.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/page-DEF456.css'), 'body { margin: 0 }');
  writeFileSync(join(dir, 'assets/notes.txt'), 'not a kind of file the page holds');
  return dir;
}

describe('the catalogue page at / (WebPageModule)', () => {
  let dir: string;
  let t: HttpTestApp;

  beforeAll(async () => {
    dir = builtPage();
    t = await startHttpTestApp({ modules: [WebPageModule.serve(dir)] });
  });
  afterAll(async () => {
    await t.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html without a token, under a strict policy of its own, to be revalidated', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      etag: expect.stringMatching(/^"[A-Za-z0-9_-]{43}"$/),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    const policy = String(response.headers['content-security-policy']).split('; ');
    expect(policy).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
      ]),
    );
    // Nothing inline, nothing from another origin.
    expect(policy.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('answers 304 without a body while the browser holds the current index.html, 200 once it changed', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const etag = String(first.headers['etag']);
    const revalidated = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const stale = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': '"an-older-page"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(INDEX);
  });

  it('serves the hashed assets with their types, for browsers to keep for good', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/assets/page-ABC123.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    expect(script.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const style = await t.app.inject({ method: 'GET', url: '/assets/page-DEF456.css' });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    ['an asset that does not exist', '/assets/page-000000.js'],
    ['a file of a kind the page does not hold', '/assets/notes.txt'],
    ['a path climbing out of assets/', '/assets/..%2Findex.html'],
    ['a deeper path', '/assets/page-ABC123.js/x'],
  ])('answers 404 40401 in the Error body for %s', async (_case, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe(JSON_UTF8);
    expect(response.json()).toEqual({ error: 40401, message: expect.any(String) });
  });

  it('is not an operation of the API: POST / is 405 with Allow, as on any route', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/', payload: '{}' });
    expect(response.statusCode).toBe(405);
    expect(response.headers['allow']).toBe('GET, HEAD');
    expect(response.json()).toEqual({ error: 40501, message: 'POST is not allowed on /; allowed: GET, HEAD.' });
  });
});

describe('WebPageModule without a built page', () => {
  it('refuses to start, naming the missing index.html', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'plantstore-web-page-'));
    try {
      await expect(startHttpTestApp({ modules: [WebPageModule.serve(empty)] })).rejects.toThrow(
        `the web page is not built (${join(empty, 'index.html')} is missing)`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the API without the page', () => {
  it('answers / as any unknown path: 404 40401', async () => {
    const t = await startHttpTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 40401 });
    } finally {
      await t.app.close();
    }
  });
});
