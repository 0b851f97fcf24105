import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { PlantStoreClient } from '@plantstore/client';
import { repositoryRoot } from '../../../test-support/repository-root.mjs';
import { axeViolations, focused, storedByPage, tabTo } from './support/browser.js';
import { useBrowserStand } from './support/browser-stand.js';
import { details, expectAlert, tableRows } from './support/page-reading.js';
import type { WatchedPage } from './support/watched-page.js';

/**
 * The catalogue page as a person uses it: the built server (`node apps/api/dist/main.js`) on a
 * fresh SQLite file with tokens made by the CLI, the page in Debian's Chromium, driven with the
 * keyboard alone (Tab, typing, Enter). Every view is checked by axe-core; every request the
 * page makes is watched. The steps run in order on one tab, as one person's visit.
 */
const SCREENSHOT = join(repositoryRoot, 'docs/web-page.png');
const XSS_NAME = '<img src=x onerror=alert(1)>';
const INT64_MAX = '9223372036854775807';
const FIRST_ID = 2n ** 53n + 1n; // 9007199254740993: a double would show …992
const NAMES: readonly [string, string][] = [
  ['Monstera deliciosa', 'tropical'],
  ['Ficus lyrata', 'tropical'],
  ['Pilea peperomioides', 'tropical'],
  ['Calathea orbifolia', 'tropical'],
  ['Sansevieria trifasciata', 'succulent'],
  ['Epipremnum aureum', 'tropical'],
  ['Zamioculcas zamiifolia', 'succulent'],
  ['Echeveria elegans', 'succulent'],
  ['Aloe vera', 'succulent'],
  ['Haworthia fasciata', 'succulent'],
  ['Crassula ovata', 'succulent'],
  ['Strelitzia reginae', 'tropical'],
  ['Philodendron hederaceum', 'tropical'],
  ['Maranta leuconeura', 'tropical'],
  ['Peperomia obtusifolia', 'tropical'],
  ['Spathiphyllum wallisii', 'tropical'],
  ['Chlorophytum comosum', 'tropical'],
  ['Dracaena marginata', 'tropical'],
  ['Alocasia zebrina', 'tropical'],
  ['Begonia maculata', 'tropical'],
  ['Hoya carnosa', 'succulent'],
  ['Senecio rowleyanus', 'succulent'],
  ['Nephrolepis exaltata', 'fern'],
  ['Adiantum raddianum', 'fern'],
  ['Asplenium nidus', 'fern'],
  ['Platycerium bifurcatum', 'fern'],
  ['Kalanchoe blossfeldiana', 'succulent'],
  ['Opuntia microdasys', 'succulent'],
];

describe('the catalogue page in a real browser, with the keyboard alone', () => {
  let writer: string;
  let reader: string;
  let context: BrowserContext;
  let page: Page;
  let watched: WatchedPage;
  const pageHtml: string[] = [];
  let api: PlantStoreClient;
  const stand = useBrowserStand({
    what: 'the catalogue page in a headless browser',
    dirPrefix: 'plantstore-web-e2e-',
    tokens: [{ name: 'web-e2e' }, { name: 'web-e2e-reader', scopes: ['plants:read'] }],
    // Every request logged, so that the last step can look for tokens in every line.
    serverEnv: { LOG_LEVEL: 'trace' },
    async ready({ server, tokens, openTab }) {
      [writer, reader] = tokens as [string, string];
      api = new PlantStoreClient({ baseUrl: server.url, token: writer });
      for (const [index, [name, tag]] of NAMES.entries())
        await api.createPlant({ id: FIRST_ID + BigInt(index), name, tag });
      await api.createPlant({ id: INT64_MAX, name: XSS_NAME, tag: '<b>tag</b>' });
      ({ context, page, watched } = await openTab());
    },
  });

  /** The view's heading, once the view is shown. */
  const heading = async () => (await page.locator('h1').innerText()).trim();
  // The calls a view makes for what it shows; the change feed it follows meanwhile is live-changes.e2e-spec's.
  const apiCalls = () =>
    watched.requests.filter(({ url }) => {
      const { pathname } = new URL(url);
      return pathname.startsWith('/plants') && pathname !== '/plants/changes';
    });
  const expectNoAxeViolations = async () => expect(await axeViolations(page)).toEqual([]);
  const keepHtml = async () => pageHtml.push(await page.content());

  it('asks for a token first, under a strict Content-Security-Policy of its own, with nothing from another origin', async () => {
    if (stand.skipped) return;
    const response = await page.goto(`${stand.server.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('h1', { hasText: 'Use an API token' }).waitFor();
    expect(await focused(page)).toBe('h1 Use an API token');
    expect(await page.title()).toBe('Use an API token · Plant Store');
    await expectNoAxeViolations();
    expect(new Set(watched.requests.map((request) => new URL(request.url).origin))).toEqual(
      new Set([stand.server.url]),
    );
  });

  it('refuses what is not a token before sending anything, and says a refused token was refused', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'input API token');
    await page.keyboard.insertText('not a token');
    await page.keyboard.press('Enter');
    await expectAlert(
      page,
      '#token-problem',
      'This is not a Plant Store API token: paste the whole token, starting with pst_, as the operator received it from "plantstore token create".',
    );
    expect(apiCalls()).toEqual([]);
    expect(await focused(page)).toBe('input API token');

    const unknown = `pst_${'x'.repeat(43)}`;
    await page.keyboard.insertText(unknown);
    await page.keyboard.press('Enter');
    await expectAlert(
      page,
      '.failure',
      'Your token was refused.\nThe bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.\nUse another token',
    );
    await expectNoAxeViolations();
    await keepHtml();
    expect(apiCalls().map((call) => call.authorization)).toEqual([`Bearer ${unknown}`]);

    await tabTo(page, 'button Use another token');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Use an API token' }).waitFor();
    expect(await storedByPage(page)).toEqual({ session: [], local: [], cookie: '' });
  });

  it('keeps a good token in sessionStorage only, and shows the first page of the catalogue with exact ids', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'input API token');
    await page.keyboard.insertText(writer);
    await keepHtml(); // typed, not yet sent: a password field's value is not in the HTML
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    expect(await heading()).toBe('Catalogue');
    expect(await storedByPage(page)).toEqual({ session: [writer], local: [], cookie: '' });
    expect(await context.cookies()).toEqual([]);
    expect(await page.locator('#token').count()).toBe(0);

    const rows = await tableRows(page);
    expect(rows).toHaveLength(25);
    expect(rows[0]).toEqual([FIRST_ID.toString(), 'Monstera deliciosa', 'tropical']);
    expect(rows.map(([id]) => id)).toEqual(NAMES.slice(0, 25).map((_, index) => (FIRST_ID + BigInt(index)).toString()));
    await expectNoAxeViolations();
    await keepHtml();
    await page.screenshot({ path: SCREENSHOT });
  });

  it("walks to the next page by the API's links, and back without asking the server again", async () => {
    if (stand.skipped) return;
    await tabTo(page, 'button Next page');
    await page.keyboard.press('Enter');
    await page.locator('h2', { hasText: 'Page 2' }).waitFor();
    expect(await focused(page)).toBe('h2 Page 2');
    const rows = await tableRows(page);
    expect(rows.at(-1)).toEqual([INT64_MAX, XSS_NAME, '<b>tag</b>']);
    expect(rows).toHaveLength(NAMES.length + 1 - 25);
    expect(await page.locator('button', { hasText: 'Next page' }).isDisabled()).toBe(true);
    const listCalls = apiCalls().length;

    await tabTo(page, 'button Previous page');
    await page.keyboard.press('Enter');
    await page.locator('h2', { hasText: 'Page 1' }).waitFor();
    expect((await tableRows(page))[0]?.[1]).toBe('Monstera deliciosa');
    expect(apiCalls()).toHaveLength(listCalls);
  });

  it('filters by tag; a tag the rules refuse is told in the words the server would use, and never sent', async () => {
    if (stand.skipped) return;
    const before = apiCalls().length;
    await tabTo(page, 'input Tag');
    await page.keyboard.insertText('   ');
    await page.keyboard.press('Enter');
    const refusal = await fetch(`${stand.server.url}/plants?tags=${encodeURIComponent('   ')}`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(refusal.status).toBe(400);
    await expectAlert(page, '#tag-filter-problem', ((await refusal.json()) as { message: string }).message);
    expect(apiCalls()).toHaveLength(before);

    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('fern');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'plants tagged “fern”' }).waitFor();
    await page.locator('table').waitFor();
    const rows = await tableRows(page);
    expect(rows.map(([, name, tag]) => [name, tag])).toEqual(
      NAMES.filter(([, tag]) => tag === 'fern').map(([name, tag]) => [name, tag]),
    );
    expect(new URL(apiCalls().at(-1)!.url).searchParams.getAll('tags')).toEqual(['fern']);
    await expectNoAxeViolations();
  });

  it('searches by name from the box beside the tag filter: accents aside, the count said politely, the search in the address', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'input Name contains');
    await page.keyboard.insertText('x'.repeat(201));
    await page.keyboard.press('Enter');
    const refusal = await fetch(`${stand.server.url}/plants?name=${'x'.repeat(201)}`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(refusal.status).toBe(400);
    const before = apiCalls().length;
    await expectAlert(page, '#name-filter-problem', ((await refusal.json()) as { message: string }).message);
    expect(apiCalls()).toHaveLength(before);

    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('ASPLÉNIUM');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'whose name contains “ASPLÉNIUM”' }).waitFor();
    expect(await heading()).toBe('Catalogue: plants tagged “fern” and whose name contains “ASPLÉNIUM”');
    await page.locator('table').waitFor();
    expect((await tableRows(page)).map(([, name, tag]) => [name, tag])).toEqual([['Asplenium nidus', 'fern']]);
    const status = page.locator('#status');
    await status.filter({ hasText: '1 plant found on page 1.' }).waitFor();
    expect(await status.getAttribute('role')).toBe('status');
    const asked = new URL(apiCalls().at(-1)!.url).searchParams;
    expect([asked.getAll('tags'), asked.getAll('name')]).toEqual([['fern'], ['ASPLÉNIUM']]);
    const address = page.url();
    expect(address).toBe(`${stand.server.url}/#/plants?tag=fern&name=ASPL%C3%89NIUM`);
    await expectNoAxeViolations();

    // The address is the search: opened again (a bookmark, a shared link), it shows the same plants.
    await page.goto(`${stand.server.url}/#/plants`);
    await page.goto(address);
    await page.reload();
    await page.locator('h1', { hasText: 'whose name contains “ASPLÉNIUM”' }).waitFor();
    await page.locator('table').waitFor();
    expect((await tableRows(page)).map(([, name]) => name)).toEqual(['Asplenium nidus']);
    expect(await page.locator('#name-filter').inputValue()).toBe('ASPLÉNIUM');

    // A search that fills a page says there is more.
    await page.goto(`${stand.server.url}/#/plants?name=a`);
    await status.filter({ hasText: '25 plants found on page 1; more on the next page.' }).waitFor();
    expect(await heading()).toBe('Catalogue: plants whose name contains “a”');

    // An emptied box drops the search and keeps the tag.
    await page.goto(address);
    await page.locator('h1', { hasText: 'whose name contains “ASPLÉNIUM”' }).waitFor();
    await tabTo(page, 'input Name contains');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    // Whole text: the heading it replaces begins with the same words.
    await page.locator('h1', { hasText: /^Catalogue: plants tagged “fern”$/ }).waitFor();
    expect(await heading()).toBe('Catalogue: plants tagged “fern”');
    expect(page.url()).toBe(`${stand.server.url}/#/plants?tag=fern`);
  });

  it('opens a plant from the list', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'a Asplenium nidus');
    await page.keyboard.press('Enter');
    await page.locator('dd.name').waitFor();
    const id = (FIRST_ID + BigInt(NAMES.findIndex(([name]) => name === 'Asplenium nidus'))).toString();
    expect(await heading()).toBe(`Plant ${id}`);
    expect(await details(page)).toEqual({ id, name: 'Asplenium nidus', tag: 'fern' });
    expect(page.url()).toBe(`${stand.server.url}/#/plants/${id}`);
    await expectNoAxeViolations();
    await keepHtml();
  });

  it('shows a name and a tag that look like HTML as those characters, running nothing', async () => {
    if (stand.skipped) return;
    await page.goto(`${stand.server.url}/#/plants/${INT64_MAX}`);
    await page.locator('dd.name').waitFor();
    expect(await details(page)).toEqual({ id: INT64_MAX, name: XSS_NAME, tag: '<b>tag</b>' });
    expect(await page.locator('img, b').count()).toBe(0);
    expect(watched.dialogs).toEqual([]);
    await expectNoAxeViolations();
  });

  it('checks the add form with the domain before sending: the server’s sentence, no request', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'a Add a plant');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Add a plant' }).waitFor();
    const offered = await page.locator('#plant-id').inputValue();
    expect(offered).toMatch(/^[1-9][0-9]*$/);
    expect(BigInt(offered) <= BigInt(INT64_MAX)).toBe(true);
    await expectNoAxeViolations();

    const before = apiCalls().length;
    await tabTo(page, 'input Tag (optional)');
    await page.keyboard.insertText('x'.repeat(65));
    await page.keyboard.press('Enter');
    const answer = await fetch(`${stand.server.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: `{"id": ${offered}, "name": "", "tag": "${'x'.repeat(65)}"}`,
    });
    expect(answer.status).toBe(400);
    const { message } = (await answer.json()) as { message: string };
    expect(message).toBe(
      'The plant is invalid: name must be 1 to 200 characters long (got 0); tag must be 1 to 64 characters long (got 65).',
    );
    await expectAlert(page, '.summary', message);
    expect(apiCalls()).toHaveLength(before);
    expect(await focused(page)).toBe('input Name');
    expect(await page.locator('#plant-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#plant-name').getAttribute('aria-describedby')).toBe('plant-name-problem');
    expect(await page.locator('#plant-name-problem').innerText()).toBe('name must be 1 to 200 characters long (got 0)');
    await expectNoAxeViolations();
  });

  it('adds a plant under the offered id, every digit of it, and tells a taken id in the catalogue’s words', async () => {
    if (stand.skipped) return;
    const offered = await page.locator('#plant-id').inputValue();
    await page.keyboard.insertText('Sword fern');
    await tabTo(page, 'input Tag (optional)');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('fern');
    await page.keyboard.press('Enter');
    await page.locator('dd.name').waitFor();
    expect(await heading()).toBe(`Plant ${offered}`);
    expect(await page.locator('#status').innerText()).toBe(`Plant ${offered} was added.`);
    expect((await api.getPlant(offered)).plant).toEqual({ name: 'Sword fern', tag: 'fern' });
    expect(
      watched.requests.filter((request) => request.method === 'POST').map((request) => request.authorization),
    ).toEqual([`Bearer ${writer}`]);

    await tabTo(page, 'a Add a plant');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Add a plant' }).waitFor();
    await tabTo(page, 'input Id');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(offered);
    await tabTo(page, 'input Name');
    await page.keyboard.insertText('Another name');
    await page.keyboard.press('Enter');
    await expectAlert(
      page,
      '.summary .failure',
      `A plant with id ${offered} already exists with a different name or tag; choose another id.`,
    );
    await expectNoAxeViolations();
    await keepHtml();
  });

  it('forgets the token on request; a read-only token browses, and adding says it lacks the scope', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'button Forget token');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Use an API token' }).waitFor();
    expect(await storedByPage(page)).toEqual({ session: [], local: [], cookie: '' });
    expect(await page.locator('#status').innerText()).toBe('Your token is forgotten.');

    await tabTo(page, 'input API token');
    await page.keyboard.insertText(reader);
    await page.keyboard.press('Enter');
    // The view asked for before the token: the add form.
    await page.locator('h1', { hasText: 'Add a plant' }).waitFor();
    await tabTo(page, 'input Name');
    await page.keyboard.insertText('Bird of paradise');
    await page.keyboard.press('Enter');
    await expectAlert(
      page,
      '.summary .failure',
      'Your token may not do this.\nThis token lacks the "plants:write" scope needed for this operation.\nUse another token',
    );
    await expectNoAxeViolations();

    await tabTo(page, 'a Catalogue');
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    expect((await tableRows(page))[0]?.[1]).toBe('Monstera deliciosa');
  });

  it('never puts a token in a URL, the page’s HTML, the console or a server log line; the page raised no error', () => {
    if (stand.skipped) return;
    const tokens = [writer, reader, `pst_${'x'.repeat(43)}`];
    const secrets = tokens.flatMap((token) => [token, createHash('sha256').update(token).digest('hex')]);
    const leaks = (texts: readonly string[]) => texts.filter((text) => secrets.some((secret) => text.includes(secret)));
    expect(leaks(watched.requests.map((request) => request.url))).toEqual([]);
    expect(leaks(pageHtml)).toEqual([]);
    expect(pageHtml).toHaveLength(5);
    expect(leaks(watched.consoleLines)).toEqual([]);
    const logLines = stand.server
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    // The page's loads and its API calls were logged, at trace level: every line was there to leak.
    const routes = new Set(
      logLines
        .map((line) => JSON.parse(line) as { msg?: string; route?: string })
        .flatMap((line) => (line.msg === 'request completed' ? [line.route] : [])),
    );
    expect([...routes]).toEqual(expect.arrayContaining(['/', '/assets/:name', '/plants', '/plants/:id']));
    expect(leaks(logLines)).toEqual([]);
    // Chromium reports each failed answer; the page's own failures (a CSP refusal, a missing
    // file, an exception) would be errors too. Only the refusals the visit provoked are there.
    expect([...new Set(watched.consoleLines.filter((line) => line.startsWith('error:')))].sort()).toEqual(
      [401, 403, 409].map((status) =>
        expect.stringMatching(new RegExp(`^error: Failed to load resource: .* ${status} `)),
      ),
    );
    expect(watched.pageErrors).toEqual([]);
  });
});
