import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PlantStoreClient } from '@plantstore/client';
import { runCli } from '../../../test-support/built-cli.js';
import { tabTo } from './support/browser.js';
import { useBrowserStand } from './support/browser-stand.js';
import { details } from './support/page-reading.js';
import type { WatchedPage } from './support/watched-page.js';

/**
 * Where a tab starts following: on a store of more than a feed page (1000 changes) of plants,
 * the page's first follow starts from the cursor of the list it read first, so it asks the feed
 * for no walk from its origin; a tab opened on a plant takes that cursor from a one-plant list
 * read before the plant. The built server on a fresh SQLite file, the page in Debian's Chromium.
 */
const PLANTS = 1500;

describe('a tab starts following the feed from its first list, not from the feed’s origin, in a real browser', () => {
  let token: string;
  let someoneElse: PlantStoreClient;
  const stand = useBrowserStand({
    what: 'the page following the feed from its list in a headless browser',
    dirPrefix: 'plantstore-web-start-',
    tokens: [{ name: 'web-start' }],
    async beforeServer({ dataDir, databaseUrl }) {
      const file = join(dataDir, 'plants.ndjson');
      writeFileSync(
        file,
        Array.from({ length: PLANTS }, (_, i) => `{"id":${i + 1},"name":"Plant ${i + 1}"}\n`).join(''),
      );
      expect((await runCli(['plants', 'import', file], { DATABASE_URL: databaseUrl })).code).toBe(0);
    },
    async ready({ server, tokens }) {
      [token] = tokens as [string];
      someoneElse = new PlantStoreClient({ baseUrl: server.url, token });
    },
  });

  /** A new tab (its own session) on `fragment`, past the token view. */
  async function openTab(fragment: string): Promise<{ page: Page; watched: WatchedPage }> {
    const { page, watched } = await stand.openTab();
    await page.goto(`${stand.server.url}/${fragment}`);
    await tabTo(page, 'input API token');
    await page.keyboard.insertText(token);
    await page.keyboard.press('Enter');
    return { page, watched };
  }

  /** The feed's cursor a list answers now: nothing was written since the tab listed, so the same. */
  async function listCursorNow(): Promise<string | undefined> {
    const res = await fetch(`${stand.server.url}/plants?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    return res.headers.get('feed-cursor') ?? undefined;
  }

  /** The tab's requests to the change feed: its JSON pages (with their `after`) and its streams (their Last-Event-ID). */
  function feedRequests(watched: WatchedPage) {
    const feed = watched.requests.filter(({ url }) => new URL(url).pathname === '/plants/changes');
    return {
      pages: feed.filter(({ accept }) => accept !== 'text/event-stream').map(({ url }) => new URL(url).searchParams),
      streams: feed.filter(({ accept }) => accept === 'text/event-stream').map(({ lastEventId }) => lastEventId),
    };
  }

  it('follows the catalogue from its list’s cursor: one feed page, no walk over the store’s 1500 changes', async () => {
    if (stand.skipped) return;
    const { page, watched } = await openTab('');
    await page.locator('td', { hasText: 'Plant 25' }).waitFor();
    while (feedRequests(watched).streams.length === 0) await page.waitForTimeout(20);
    const cursor = await listCursorNow();
    expect(cursor).toMatch(/^[0-9a-z.-]{1,100}$/);
    const { pages, streams } = feedRequests(watched);
    expect(pages.map((query) => query.get('after'))).toEqual([cursor]);
    expect(streams).toEqual([cursor]);
    // And it follows: a change made elsewhere shows.
    await someoneElse.updatePlant(3n, { name: 'Plant 3, renamed' });
    await page.locator('td', { hasText: 'Plant 3, renamed' }).waitFor();
    await page.context().close();
  });

  it('opened on a plant, reads a one-plant list before the plant and follows from its cursor', async () => {
    if (stand.skipped) return;
    const { page, watched } = await openTab('#/plants/1000');
    await page.locator('dd.name').waitFor();
    while (feedRequests(watched).streams.length === 0) await page.waitForTimeout(20);
    const reads = watched.requests
      .map(({ url }) => new URL(url))
      .filter(({ pathname }) => pathname.startsWith('/plants') && pathname !== '/plants/changes')
      .map(({ pathname, search }) => `${pathname}${search}`);
    expect(reads).toEqual(['/plants?limit=1', '/plants/1000']);
    const cursor = await listCursorNow();
    const { pages, streams } = feedRequests(watched);
    expect(pages.map((query) => query.get('after'))).toEqual([cursor]);
    expect(streams).toEqual([cursor]);
    await someoneElse.updatePlant(1000n, { name: 'Plant 1000, renamed' });
    await page.locator('dd.name', { hasText: 'Plant 1000, renamed' }).waitFor();
    expect(await details(page)).toEqual({ id: '1000', name: 'Plant 1000, renamed', tag: 'no tag' });
    await page.context().close();
  });
});
