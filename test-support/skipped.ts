import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the run collects what was left out (test-support/skipped-setup.mjs makes it). */
export const SKIPPED_DIR_VARIABLE = 'PLANTSTORE_TEST_SKIPPED_DIR';

/**
 * Says that a part of the tests did not run here, and how to make it run. Every suite that
 * leaves something out calls this instead of printing: the run's globalTeardown prints one
 * list at the end of `pnpm test`, each entry once however many suites report it.
 */
export function reportSkipped(what: string, howToEnable: string): void {
  const dir = process.env[SKIPPED_DIR_VARIABLE];
  // A jest run without that setup (another config): say it where it happens.
  if (dir === undefined || dir === '') {
    process.stderr.write(`skipped: ${what}: ${howToEnable}\n`);
    return;
  }
  appendFileSync(join(dir, `${process.pid}.ndjson`), `${JSON.stringify({ what, howToEnable })}\n`);
}
