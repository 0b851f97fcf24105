import type { Page } from 'playwright-core';
import { PlantStoreClient } from '@plantstore/client';
import { axeViolations, tabTo } from './support/browser.js';
import { useBrowserStand } from './support/browser-stand.js';
import { details, tableRows } from './support/page-reading.js';
import type { WatchedPage } from './support/watched-page.js';

/**
 * The page stays live: the built server on a fresh SQLite file, the page open in Debian's
 * Chromium, and another client changing the catalogue through @plantstore/client. What the
 * other client does shows in the open page without a reload, and is said in the page's polite
 * live region; the page follows the change feed over fetch (the token in the Authorization
 * header, never in a URL) and stops following a view the person left. The steps run in order.
 */
const FIRST = 2n ** 53n + 1n;
const id = (offset: number) => (FIRST + BigInt(offset)).toString();
const PLANTS: readonly [string, string, string][] = [
  [id(0), 'Monstera deliciosa', 'tropical'],
  [id(2), 'Ficus lyrata', 'tropical'],
  [id(4), 'Aloe vera', 'succulent'],
  [id(6), 'Asplenium nidus', 'fern'],
];

describe('the page follows changes made elsewhere, in a real browser', () => {
  let writer: string;
  let page: Page;
  let watched: WatchedPage;
  let someoneElse: PlantStoreClient;
  const stand = useBrowserStand({
    what: 'the live catalogue page in a headless browser',
    dirPrefix: 'plantstore-web-live-',
    tokens: [{ name: 'web-live' }],
    async ready({ server, tokens, openTab }) {
      [writer] = tokens as [string];
      someoneElse = new PlantStoreClient({ baseUrl: server.url, token: writer });
      for (const [plantId, name, tag] of PLANTS) await someoneElse.createPlant({ id: plantId, name, tag });
      ({ page, watched } = await openTab());
    },
  });

  const status = () => page.locator('#status');
  const said = async (text: string) => {
    await page.locator('#status', { hasText: text }).waitFor();
    expect((await status().innerText()).trim()).toBe(text);
  };
  const streams = () =>
    watched.requests.filter(({ url, accept }) => url.endsWith('/plants/changes') && accept === 'text/event-stream');
  /** Set in the page once it is shown: still there after each change, so the page was never reloaded. */
  const markPage = () => page.evaluate('window.notReloaded = true');
  const notReloaded = () => page.evaluate<boolean>('window.notReloaded === true');

  it('shows the catalogue, then follows its changes over one stream with the token in its Authorization header', async () => {
    if (stand.skipped) return;
    await page.goto(`${stand.server.url}/`);
    await tabTo(page, 'input API token');
    await page.keyboard.insertText(writer);
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    await markPage();
    expect(await status().getAttribute('aria-live')).toBe('polite');
    expect(await status().getAttribute('role')).toBe('status');
    while (streams().length === 0) await page.waitForTimeout(20);
    expect(streams().map(({ authorization }) => authorization)).toEqual([`Bearer ${writer}`]);
    expect(watched.requests.filter(({ url }) => url.includes(writer))).toEqual([]);
  });

  it('a plant renamed by another client shows renamed, said politely, without a reload', async () => {
    if (stand.skipped) return;
    await someoneElse.updatePlant(id(2), { name: 'Ficus elastica', tag: 'indoor' });
    await page.locator('td', { hasText: 'Ficus elastica' }).waitFor();
    expect(await tableRows(page)).toEqual([
      [id(0), 'Monstera deliciosa', 'tropical'],
      [id(2), 'Ficus elastica', 'indoor'],
      [id(4), 'Aloe vera', 'succulent'],
      [id(6), 'Asplenium nidus', 'fern'],
    ]);
    await said(`Plant ${id(2)} was changed: now “Ficus elastica”, tagged “indoor”.`);
    expect(await notReloaded()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a plant added on the page shows in its place by id; one deleted elsewhere goes', async () => {
    if (stand.skipped) return;
    await someoneElse.createPlant({ id: id(3), name: 'Pilea peperomioides' });
    await page.locator('td', { hasText: 'Pilea peperomioides' }).waitFor();
    await said(`Plant ${id(3)}, “Pilea peperomioides”, without a tag, was added to this page.`);
    await someoneElse.deletePlant(id(0));
    await said(`Plant ${id(0)}, “Monstera deliciosa”, was deleted.`);
    expect((await tableRows(page)).map(([plantId, name]) => [plantId, name])).toEqual([
      [id(2), 'Ficus elastica'],
      [id(3), 'Pilea peperomioides'],
      [id(4), 'Aloe vera'],
      [id(6), 'Asplenium nidus'],
    ]);
    expect(await notReloaded()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("stops following a view that is left, and the next view follows from the last view's cursor", async () => {
    if (stand.skipped) return;
    const before = streams().length;
    await tabTo(page, 'a Aloe vera');
    await page.keyboard.press('Enter');
    await page.locator('dd.name').waitFor();
    while (streams().length === before) await page.waitForTimeout(20);
    expect(watched.failed.filter((url) => url.endsWith('/plants/changes'))).toHaveLength(before);
    const resumed = streams().at(-1)!;
    expect(resumed.lastEventId).toMatch(/^[A-Za-z0-9._~-]{1,100}$/);
    // It resumed where the catalogue stopped, which started from its list's cursor: no view read
    // the feed from its beginning.
    expect(
      watched.requests
        .filter(({ url }) => new URL(url).pathname === '/plants/changes' && !url.endsWith('/plants/changes'))
        .filter(({ url }) => !new URL(url).searchParams.has('after')),
    ).toEqual([]);
  });

  it("a plant's view shows it renamed, then deleted, by another client", async () => {
    if (stand.skipped) return;
    await someoneElse.updatePlant(id(4), { name: 'Aloe arborescens', tag: 'succulent' });
    await page.locator('dd.name', { hasText: 'Aloe arborescens' }).waitFor();
    expect(await details(page)).toEqual({ id: id(4), name: 'Aloe arborescens', tag: 'succulent' });
    await said(`Plant ${id(4)} was changed: now “Aloe arborescens”, tagged “succulent”.`);
    expect(await axeViolations(page)).toEqual([]);

    await someoneElse.deletePlant(id(4));
    await page.locator('.deleted').waitFor();
    await said(`Plant ${id(4)} was deleted.`);
    expect(await notReloaded()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the edit view says the plant it edits changed meanwhile, before a save runs into 412', async () => {
    if (stand.skipped) return;
    await page.evaluate(`location.hash = '#/plants/${id(6)}/edit'`);
    await page.locator('#plant-name').waitFor();
    const puts = watched.requests.filter(({ method }) => method === 'PUT').length;
    await someoneElse.updatePlant(id(6), { name: 'Asplenium antiquum', tag: 'fern' });
    const text =
      'Someone else changed this plant after you opened it: it is now “Asplenium antiquum”, tagged “fern”. If you save, you will see both versions and choose which to keep.';
    await page.locator('.meanwhile', { hasText: 'Asplenium antiquum' }).waitFor();
    expect((await page.locator('.meanwhile').innerText()).trim()).toBe(text);
    await said(text);
    // The form still holds the person's version: nothing was sent.
    expect(await page.locator('#plant-name').inputValue()).toBe('Asplenium nidus');
    expect(watched.requests.filter(({ method }) => method === 'PUT')).toHaveLength(puts);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a stream cut by a server crash is opened again from the last cursor: a change made meanwhile shows', async () => {
    if (stand.skipped) return;
    const before = streams().length;
    await tabTo(page, 'a Catalogue');
    await page.keyboard.press('Enter');
    // What changed while the plant's views were shown is in the catalogue kept.
    await page.locator('td', { hasText: 'Asplenium antiquum' }).waitFor();
    while (streams().length === before) await page.waitForTimeout(20);
    // Killed, then started again on the same port and store.
    await stand.restartServer('SIGKILL');
    await someoneElse.updatePlant(id(3), { name: 'Pilea involucrata' });
    await page.locator('td', { hasText: 'Pilea involucrata' }).waitFor({ timeout: 45_000 });
    await said(`Plant ${id(3)} was changed: now “Pilea involucrata”, without a tag.`);
    // Opened again from the cursor it had (nothing came between), not walked from the feed's beginning.
    const cursor = streams()[before]!.lastEventId;
    expect(cursor).toMatch(/^[A-Za-z0-9._~-]{1,100}$/);
    const reopened = streams().slice(before + 1);
    expect(reopened.length).toBeGreaterThan(0);
    expect(reopened.map((stream) => stream.lastEventId)).toEqual(reopened.map(() => cursor));
    expect(await notReloaded()).toBe(true);
  }, 60_000);

  it('raised no error in the page; the console shows only the crash: the stream it cut, the attempts refused while down', () => {
    if (stand.skipped) return;
    expect(watched.pageErrors).toEqual([]);
    const errors = new Set(watched.consoleLines.filter((line) => line.startsWith('error:')));
    expect(errors).toContain('error: Failed to load resource: net::ERR_CONNECTION_REFUSED');
    // Chromium reports the cut stream too, or not, and as a broken chunk or a reset connection,
    // depending on where the crash fell in it.
    errors.delete('error: Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING');
    errors.delete('error: Failed to load resource: net::ERR_CONNECTION_RESET');
    expect([...errors]).toEqual(['error: Failed to load resource: net::ERR_CONNECTION_REFUSED']);
  });
});
