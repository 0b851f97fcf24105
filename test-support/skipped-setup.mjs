/**
 * jest globalSetup: a directory where suites note what they skipped (test-support/skipped.ts);
 * jest's workers start after this and inherit its path by environment.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function makeSkippedList() {
  process.env.PLANTSTORE_TEST_SKIPPED_DIR = mkdtempSync(join(tmpdir(), 'plantstore-skipped-'));
}
