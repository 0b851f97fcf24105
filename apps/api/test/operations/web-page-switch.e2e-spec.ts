import request from 'supertest';
import { useTestApp } from '../support/test-app.js';

// docs/operations.md#the-catalogue-page: the built page at / by default; WEB_PAGE=off leaves the API alone.
describe('the catalogue page, served by default', () => {
  const t = useTestApp();

  it('answers / with the built page, whose script and stylesheet are served beside it', async () => {
    const page = await request(t.url).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.map((path) => path.replace(/-[A-Z0-9]+\./, '-HASH.')).sort()).toEqual([
      '/assets/icon-HASH.svg',
      '/assets/page-HASH.css',
      '/assets/page-HASH.js',
    ]);
    for (const path of assets) expect((await request(t.url).get(path)).status).toBe(200);
  });
});

describe('WEB_PAGE=off: an API-only server', () => {
  const t = useTestApp({ WEB_PAGE: 'off' });

  it('answers / as an unknown path, and still serves the OpenAPI document and /docs', async () => {
    const root = await request(t.url).get('/');
    expect(root.status).toBe(404);
    expect(root.body).toMatchObject({ error: 40401 });
    expect((await request(t.url).get('/openapi.json')).status).toBe(200);
    expect((await request(t.url).get('/docs')).status).toBe(200);
  });
});
