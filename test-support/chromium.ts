import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { reportSkipped } from './skipped.js';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium (installed by .ci/run; no browser is downloaded), headless, with the flags a
 * closed network needs. In CI its absence fails the suite; elsewhere the suite says how to get it
 * (`what` names the suite in the run's list of what was skipped) and passes over the browser.
 */
export async function launchChromium(what: string): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (process.env['CI'] === 'true')
      throw new Error(`${CHROMIUM} is missing in CI (.ci/run installs Debian's chromium)`);
    reportSkipped(what, `install ${CHROMIUM} (apt-get install chromium)`);
    return undefined;
  }
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
