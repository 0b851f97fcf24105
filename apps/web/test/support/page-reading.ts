import type { Page } from 'playwright-core';

// What the tests read of elements in the page (compiled without the DOM's types).
interface Shown {
  readonly textContent: string | null;
  closest(selector: string): { getAttribute(name: string): string | null } | null;
}
interface Row {
  readonly cells: ArrayLike<Shown>;
}

/** An alert region's text once it is shown (role="alert": a screen reader announces it). */
export async function expectAlert(page: Page, selector: string, text: string): Promise<void> {
  const region = page.locator(selector);
  await region.filter({ hasText: text.split('\n')[0]! }).waitFor();
  const role = await region.evaluate((element: Shown) => element.closest('[role=alert]')?.getAttribute('role'));
  expect(role).toBe('alert');
  expect(await shownText(page, selector)).toBe(text);
}

/** An element's text as shown, one line per paragraph (innerText puts a blank line between them). */
export async function shownText(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).innerText()).trim().replace(/\n+/g, '\n');
}

/** Whether an element is inside an alert: what is told as a failure, not as a state. */
export async function isInAlert(page: Page, selector: string): Promise<boolean> {
  return await page.locator(selector).evaluate((element: Shown) => element.closest('[role=alert]') !== null);
}

/** The cells of each row of the table's body (`selector` picks the table when the view has several). */
export async function tableRows(page: Page, selector = 'table'): Promise<string[][]> {
  return await page
    .locator(`${selector} tbody tr`)
    .evaluateAll((rows: Row[]) => rows.map((row) => Array.from(row.cells, (cell) => cell.textContent ?? '')));
}

/** The plant view's details: its id, name and tag as shown. */
export async function details(page: Page): Promise<{ id: string; name: string; tag: string }> {
  const text = (selector: string) => page.locator(`dl.details ${selector}`).innerText();
  return { id: await text('dd.id'), name: await text('dd.name'), tag: await text('dd.tag') };
}
