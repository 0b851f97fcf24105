import type { Page } from 'playwright-core';
import { PlantStoreClient, PlantStoreGoneError } from '@plantstore/client';
import { axeViolations, focused, tabTo } from './support/browser.js';
import { useBrowserStand } from './support/browser-stand.js';
import { details, expectAlert, isInAlert, shownText, tableRows } from './support/page-reading.js';
import type { WatchedPage } from './support/watched-page.js';

/**
 * Editing and deleting plants in the catalogue page as people do it, several at once: the built
 * server on a fresh SQLite file, the page in Debian's Chromium driven with the keyboard alone,
 * and "someone else" changing or deleting plants through @plantstore/client between the page's
 * read and its save. axe-core checks every view and state; every request is watched, with the
 * If-Match it carried. The steps run in order on one tab.
 */
const XSS_NAME = '<img src=x onerror=alert(1)>';
const FIRST_ID = 2n ** 53n + 1n; // every digit of an id beyond a double's reach
const EDITED = (FIRST_ID + 0n).toString();
const STALE = (FIRST_ID + 1n).toString();
const DELETED = (FIRST_ID + 2n).toString();
const CHANGED_BEFORE_DELETE = (FIRST_ID + 3n).toString();
const GONE = (FIRST_ID + 4n).toString();
const PLANTS: readonly [string, string, string][] = [
  [EDITED, 'Ficus', 'indoor'],
  [STALE, 'Calathea', 'tropical'],
  [DELETED, 'Aloe vera', 'succulent'],
  [CHANGED_BEFORE_DELETE, 'Echeveria', 'succulent'],
  [GONE, 'Haworthia', 'succulent'],
];

describe('editing and deleting plants in a real browser, with the keyboard alone', () => {
  let writer: string;
  let page: Page;
  let watched: WatchedPage;
  let someoneElse: PlantStoreClient;
  const stand = useBrowserStand({
    what: 'editing and deleting plants in a headless browser',
    dirPrefix: 'plantstore-web-changes-',
    tokens: [{ name: 'web-changes' }],
    async ready({ server, tokens, openTab }) {
      [writer] = tokens as [string];
      someoneElse = new PlantStoreClient({ baseUrl: server.url, token: writer });
      for (const [id, name, tag] of PLANTS) await someoneElse.createPlant({ id, name, tag });
      ({ page, watched } = await openTab());
    },
  });

  const heading = async () => (await page.locator('h1').innerText()).trim();
  const expectNoAxeViolations = async () => expect(await axeViolations(page)).toEqual([]);
  const plantPath = (id: string) => `/plants/${id}`;
  const sent = (method: string, id: string) =>
    watched.requests.filter((request) => request.method === method && new URL(request.url).pathname === plantPath(id));
  const answered = (method: string, id: string) =>
    watched.responses.filter(
      (response) => response.method === method && new URL(response.url).pathname === plantPath(id),
    );
  /** The ETag of the last read of plant `id` the page received: the version it shows. */
  const lastEtagRead = (id: string) => answered('GET', id).at(-1)?.etag;

  /** From any view: the catalogue, then the plant's link, with the keyboard. */
  async function openPlant(name: string): Promise<void> {
    await tabTo(page, 'a Catalogue');
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    await tabTo(page, `a ${name}`);
    await page.keyboard.press('Enter');
    await page.locator('dd.name').waitFor();
  }

  /** From the plant view: its Edit action, until the form holds the plant. */
  async function openEditForm(id: string): Promise<void> {
    await tabTo(page, 'a Edit this plant');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: `Edit plant ${id}` }).waitFor();
    await page.locator('#plant-name').waitFor();
  }

  /** Replaces a field's text, as a person selects all and types. */
  async function retype(label: string, text: string): Promise<void> {
    await tabTo(page, `input ${label}`);
    await page.keyboard.press('Control+A');
    if (text === '') await page.keyboard.press('Backspace');
    else await page.keyboard.insertText(text);
  }

  it('shows the catalogue once a token is pasted', async () => {
    if (stand.skipped) return;
    await page.goto(`${stand.server.url}/`);
    await tabTo(page, 'input API token');
    await page.keyboard.insertText(writer);
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    expect((await tableRows(page)).map(([id, name]) => [id, name])).toEqual(PLANTS.map(([id, name]) => [id, name]));
  });

  it('edits a plant: the form holds what is stored, and the save names the version read in If-Match', async () => {
    if (stand.skipped) return;
    await openPlant('Ficus');
    await openEditForm(EDITED);
    expect(await focused(page)).toBe(`h1 Edit plant ${EDITED}`);
    expect(await page.title()).toBe(`Edit plant ${EDITED} · Plant Store`);
    expect(await page.locator('#plant-name').inputValue()).toBe('Ficus');
    expect(await page.locator('#plant-tag').inputValue()).toBe('indoor');
    await expectNoAxeViolations();
    const read = lastEtagRead(EDITED);
    expect(read).toMatch(/^"[^"]+"$/);

    await retype('Name', 'Ficus lyrata');
    await retype('Tag (optional)', '');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: `Plant ${EDITED} was saved.` }).waitFor();
    await page.locator('dd.name', { hasText: 'Ficus lyrata' }).waitFor();
    expect(await heading()).toBe(`Plant ${EDITED}`);
    expect(await details(page)).toEqual({ id: EDITED, name: 'Ficus lyrata', tag: 'no tag' });
    expect(sent('PUT', EDITED).map((request) => request.ifMatch)).toEqual([read]);
    expect((await someoneElse.getPlant(EDITED)).plant).toEqual({ name: 'Ficus lyrata' });

    // The catalogue read before the edit is read again.
    await openPlant('Ficus lyrata');
    expect(await details(page)).toEqual({ id: EDITED, name: 'Ficus lyrata', tag: 'no tag' });
  });

  it('checks an edit with the domain before sending: the server’s sentence, and no request', async () => {
    if (stand.skipped) return;
    await openEditForm(EDITED);
    const before = watched.requests.length;
    await retype('Name', '');
    await retype('Tag (optional)', 'x'.repeat(65));
    await page.keyboard.press('Enter');
    const answer = await fetch(`${stand.server.url}/plants/${EDITED}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', tag: 'x'.repeat(65) }),
    });
    expect(answer.status).toBe(400);
    const { message } = (await answer.json()) as { message: string };
    expect(message).toBe(
      'The plant is invalid: name must be 1 to 200 characters long (got 0); tag must be 1 to 64 characters long (got 65).',
    );
    await expectAlert(page, '.summary', message);
    // Nothing sent but the change feed the view follows (its stream may open meanwhile).
    expect(watched.requests.slice(before).filter(({ url }) => new URL(url).pathname !== '/plants/changes')).toEqual([]);
    expect(await focused(page)).toBe('input Name');
    expect(await page.locator('#plant-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#plant-tag').getAttribute('aria-describedby')).toBe('plant-tag-hint plant-tag-problem');
    await expectNoAxeViolations();
    expect((await someoneElse.getPlant(EDITED)).plant).toEqual({ name: 'Ficus lyrata' });
  });

  it('saves a name and a tag that look like HTML, and shows them as those characters, running nothing', async () => {
    if (stand.skipped) return;
    await retype('Name', XSS_NAME);
    await retype('Tag (optional)', '<b>tag</b>');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: `Plant ${EDITED} was saved.` }).waitFor();
    await page.locator('dd.name', { hasText: XSS_NAME }).waitFor();
    expect(await details(page)).toEqual({ id: EDITED, name: XSS_NAME, tag: '<b>tag</b>' });
    expect((await someoneElse.getPlant(EDITED)).plant).toEqual({ name: XSS_NAME, tag: '<b>tag</b>' });

    await openEditForm(EDITED);
    expect(await page.locator('#plant-name').inputValue()).toBe(XSS_NAME);
    expect(await page.locator('#plant-tag').inputValue()).toBe('<b>tag</b>');
    expect(await page.locator('img, b').count()).toBe(0);
    expect(watched.dialogs).toEqual([]);
  });

  it('refuses an edit made over a version since changed (412) and shows what is stored now beside it; keeping that saves nothing', async () => {
    if (stand.skipped) return;
    await openPlant('Calathea');
    await openEditForm(STALE);
    const read = lastEtagRead(STALE);
    await someoneElse.updatePlant(STALE, { name: 'Calathea orbifolia', tag: 'tropical' });

    await retype('Tag (optional)', 'shade');
    await page.keyboard.press('Enter');
    await page.locator('h2', { hasText: 'Someone else changed this plant meanwhile' }).waitFor();
    expect(await focused(page)).toBe('h2 Someone else changed this plant meanwhile');
    expect(await tableRows(page, 'table.versions')).toEqual([
      ['Name', 'Calathea orbifolia', 'Calathea'],
      ['Tag', 'tropical', 'shade'],
    ]);
    expect(answered('PUT', STALE).map((response) => response.status)).toEqual([412]);
    expect(sent('PUT', STALE).map((request) => request.ifMatch)).toEqual([read]);
    await expectNoAxeViolations();

    await tabTo(page, 'button Keep what is stored');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: `Your edit was not saved: plant ${STALE} is as stored.` }).waitFor();
    await page.locator('dd.name', { hasText: 'Calathea orbifolia' }).waitFor();
    expect(await details(page)).toEqual({ id: STALE, name: 'Calathea orbifolia', tag: 'tropical' });
    expect(sent('PUT', STALE)).toHaveLength(1);
    expect((await someoneElse.getPlant(STALE)).plant).toEqual({ name: 'Calathea orbifolia', tag: 'tropical' });
  });

  it('…or saves the edit over the version shown, naming that version in If-Match', async () => {
    if (stand.skipped) return;
    await openEditForm(STALE);
    await someoneElse.updatePlant(STALE, { name: 'Calathea lancifolia', tag: 'tropical' });
    await retype('Tag (optional)', 'shade');
    await page.keyboard.press('Enter');
    await page.locator('h2', { hasText: 'Someone else changed this plant meanwhile' }).waitFor();
    expect(await tableRows(page, 'table.versions')).toEqual([
      ['Name', 'Calathea lancifolia', 'Calathea orbifolia'],
      ['Tag', 'tropical', 'shade'],
    ]);
    const shown = lastEtagRead(STALE);

    await tabTo(page, 'button Save my edit over it');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: `Plant ${STALE} was saved.` }).waitFor();
    await page.locator('dd.tag', { hasText: 'shade' }).waitFor();
    expect(await details(page)).toEqual({ id: STALE, name: 'Calathea orbifolia', tag: 'shade' });
    expect(sent('PUT', STALE).at(-1)?.ifMatch).toBe(shown);
    expect(answered('PUT', STALE).map((response) => response.status)).toEqual([412, 412, 200]);
    expect((await someoneElse.getPlant(STALE)).plant).toEqual({ name: 'Calathea orbifolia', tag: 'shade' });
  });

  it('deletes a plant only once the person confirms; then the plant shows as deleted, a state, and the catalogue no longer lists it', async () => {
    if (stand.skipped) return;
    await openPlant('Aloe vera');
    const read = lastEtagRead(DELETED);
    await tabTo(page, 'button Delete this plant');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('h2 Delete this plant?');
    expect(await shownText(page, '.confirm p')).toBe(
      `Plant ${DELETED}, “Aloe vera”, will be deleted for good. Its id, ${DELETED}, stays retired: no plant can be added with it again.`,
    );
    await expectNoAxeViolations();

    // Keeping it, by the button or by Escape, deletes nothing and gives the focus back to Delete.
    await tabTo(page, 'button Keep it');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('button Delete this plant');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toBe('button Delete this plant');
    expect(sent('DELETE', DELETED)).toEqual([]);

    await page.keyboard.press('Enter');
    await tabTo(page, `button Delete plant ${DELETED}`);
    await page.keyboard.press('Enter');
    await page.locator('.deleted h2').waitFor();
    expect(await focused(page)).toBe('h2 Deleted');
    expect(await shownText(page, '.deleted')).toBe(
      `Deleted\nPlant ${DELETED} was deleted.\nIts id, ${DELETED}, stays retired: no plant can be added with it again.`,
    );
    expect(await isInAlert(page, '.deleted')).toBe(false);
    expect(await page.locator('#status').innerText()).toBe(`Plant ${DELETED} was deleted.`);
    expect(sent('DELETE', DELETED).map((request) => request.ifMatch)).toEqual([read]);
    await expectNoAxeViolations();
    await expect(someoneElse.getPlant(DELETED)).rejects.toBeInstanceOf(PlantStoreGoneError);

    // Opened again, the API answers 410: the view shows the same state, in the catalogue's words.
    await page.reload();
    await page.locator('.deleted').waitFor();
    expect(await heading()).toBe(`Plant ${DELETED}`);
    expect(await shownText(page, '.deleted')).toBe(`Deleted\nThe plant with id ${DELETED} was deleted.`);
    expect(await isInAlert(page, '.deleted')).toBe(false);
    expect(await page.locator('.failure, .plant-actions').count()).toBe(0);
    await expectNoAxeViolations();

    await tabTo(page, 'a Catalogue');
    await page.keyboard.press('Enter');
    await page.locator('table').waitFor();
    expect((await tableRows(page)).map(([id]) => id)).toEqual([EDITED, STALE, CHANGED_BEFORE_DELETE, GONE]);
  });

  it('deletes nothing changed since it was read (412): it shows the plant as it is now and asks again', async () => {
    if (stand.skipped) return;
    await tabTo(page, 'a Echeveria');
    await page.keyboard.press('Enter');
    await page.locator('dd.name').waitFor();
    await tabTo(page, 'button Delete this plant');
    await page.keyboard.press('Enter');
    await someoneElse.updatePlant(CHANGED_BEFORE_DELETE, { name: 'Echeveria elegans', tag: 'succulent' });
    await tabTo(page, `button Delete plant ${CHANGED_BEFORE_DELETE}`);
    await page.keyboard.press('Enter');

    await page.locator('h2', { hasText: 'This plant changed: delete it as it is now?' }).waitFor();
    expect(await focused(page)).toBe('h2 This plant changed: delete it as it is now?');
    expect(await details(page)).toEqual({ id: CHANGED_BEFORE_DELETE, name: 'Echeveria elegans', tag: 'succulent' });
    expect(answered('DELETE', CHANGED_BEFORE_DELETE).map((response) => response.status)).toEqual([412]);
    expect((await someoneElse.getPlant(CHANGED_BEFORE_DELETE)).plant.name).toBe('Echeveria elegans');
    await expectNoAxeViolations();
    const shown = lastEtagRead(CHANGED_BEFORE_DELETE);

    await tabTo(page, `button Delete plant ${CHANGED_BEFORE_DELETE}`);
    await page.keyboard.press('Enter');
    await page.locator('.deleted h2').waitFor();
    expect(sent('DELETE', CHANGED_BEFORE_DELETE).at(-1)?.ifMatch).toBe(shown);
    await expect(someoneElse.getPlant(CHANGED_BEFORE_DELETE)).rejects.toBeInstanceOf(PlantStoreGoneError);
  });

  it('says an edit of a plant deleted behind the page’s back (410) was not saved: the plant was deleted', async () => {
    if (stand.skipped) return;
    await openPlant('Haworthia');
    await openEditForm(GONE);
    await someoneElse.deletePlant(GONE);
    await retype('Name', 'Haworthia attenuata');
    await page.keyboard.press('Enter');

    await page.locator('.deleted h2').waitFor();
    expect(await focused(page)).toBe('h2 Deleted');
    expect(await shownText(page, '.deleted')).toBe(
      `Deleted\nPlant ${GONE} was deleted by someone else after you opened it, so your edit was not saved.\nIts id, ${GONE}, stays retired: no plant can be added with it again.`,
    );
    expect(await isInAlert(page, '.deleted')).toBe(false);
    expect(answered('PUT', GONE).map((response) => response.status)).toEqual([410]);
    await expectNoAxeViolations();
  });

  it('raised no error in the page; the console shows only the refusals the visit provoked', () => {
    if (stand.skipped) return;
    expect(watched.pageErrors).toEqual([]);
    expect(watched.dialogs).toEqual([]);
    expect([...new Set(watched.consoleLines.filter((line) => line.startsWith('error:')))].sort()).toEqual(
      [410, 412].map((status) => expect.stringMatching(new RegExp(`^error: Failed to load resource: .* ${status} `))),
    );
  });
});
