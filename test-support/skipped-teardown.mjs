/**
 * jest globalTeardown, which runs after jest's summary: the run ends with one short list of
 * what this machine left out and how to enable it, each entry once however many suites
 * reported it (test-support/skipped.ts).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export default function printSkippedList() {
  const dir = process.env.PLANTSTORE_TEST_SKIPPED_DIR;
  if (!dir) return;
  const entries = new Map();
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line === '') continue;
      const { what, howToEnable } = JSON.parse(line);
      entries.set(what, howToEnable);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  if (entries.size === 0) return;
  const lines = [...entries].sort(([a], [b]) => a.localeCompare(b)).map(([what, how]) => `  - ${what}: ${how}`);
  process.stderr.write(`\nSkipped on this machine (${entries.size}):\n${lines.join('\n')}\n`);
}
