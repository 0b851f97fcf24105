import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export { launchChromium } from '../../../../test-support/chromium.js';

// Scripts run in the page are strings: the tests are compiled without the DOM's types.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly help: string;
  readonly nodes: readonly string[];
}

/** axe-core's findings on the page as it is now (every rule axe runs by default): none is the aim. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return await page.evaluate<AxeViolation[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((results) =>
      results.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    )`);
}

/** What has the keyboard focus: its tag and its label (a field's <label>, else its text). */
export function focused(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return '';
    const label = element.labels && element.labels.length > 0 ? element.labels[0].textContent : element.textContent;
    return element.tagName.toLowerCase() + ' ' + (label ?? '').trim();
  })()`);
}

/**
 * Presses Tab until `wanted` (as `focused` names it) has the focus: the keyboard alone reaches
 * it, in the page's focus order. Fails, listing what the focus went through, when it does not.
 */
export async function tabTo(page: Page, wanted: string, maxPresses = 80): Promise<void> {
  const path: string[] = [];
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now === wanted) return;
    path.push(now);
  }
  throw new Error(`Tab never reached "${wanted}"; the focus went through: ${path.join(' → ')}`);
}

/** The Web Storage and cookies the page can see, as one object. */
export function storedByPage(page: Page): Promise<{ session: string[]; local: string[]; cookie: string }> {
  return page.evaluate(`({
    session: Object.keys(sessionStorage).map((key) => sessionStorage.getItem(key)),
    local: Object.keys(localStorage).map((key) => localStorage.getItem(key)),
    cookie: document.cookie,
  })`);
}
