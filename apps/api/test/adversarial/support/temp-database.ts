import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp directory for one suite's SQLite file; `remove` deletes it and everything in it. */
export function tempDatabaseDir(label: string): { dir: string; path: string; url: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `plantstore-adv-${label}-`));
  const path = join(dir, 'plantstore.sqlite');
  return { dir, path, url: `sqlite:${path}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
