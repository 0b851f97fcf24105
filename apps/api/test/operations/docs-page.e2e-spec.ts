import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../../test-support/chromium.js';
import { useTestApp } from '../support/test-app.js';

const SCREENSHOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-output');

describe('GET /docs in a real browser', () => {
  const t = useTestApp();
  let browser: Browser | undefined;

  beforeAll(async () => {
    browser = await launchChromium('the docs page in a headless browser');
  }, 60_000);
  afterAll(() => browser?.close());

  it('renders POST /plants and the Plant, NewPlant and Error schemas, with every request staying on 127.0.0.1', async () => {
    if (browser === undefined) return;
    const page = await browser.newPage();
    const origins = new Set<string>();
    page.on('request', (req) => origins.add(new URL(req.url()).origin));
    // Anything not served by the app itself is refused, so an accidental CDN link would show up as a failure.
    await page.route('**/*', (route) => (route.request().url().startsWith(t.url) ? route.continue() : route.abort()));
    await page.goto(`${t.url}/docs`, { waitUntil: 'networkidle' });

    const operation = page.locator('.opblock-post');
    await operation.waitFor({ timeout: 20_000 });
    expect(await operation.locator('.opblock-summary-path').innerText()).toContain('/plants');
    expect(await page.locator('.info .title').innerText()).toContain('Plant Store');
    // OpenAPI 3.1 schemas are drawn by Swagger UI's JSON Schema 2020-12 renderer, one top-level article each.
    const schemaTitles = await page
      .locator(
        'section.models article[data-json-schema-level="0"] > .json-schema-2020-12-head .json-schema-2020-12__title',
      )
      .allInnerTexts();
    expect(schemaTitles).toEqual(expect.arrayContaining(['Plant', 'NewPlant', 'Error']));
    expect([...origins]).toEqual([t.url]);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'docs-page.png'), fullPage: true });
  }, 60_000);
});
