import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout these helpers belong to. */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `file`, which a build makes (an app's `dist/main.js`); throws, saying to build, when it is missing.
 *
 * @param {string} file
 * @returns {string}
 */
export function builtFile(file) {
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (pnpm build, or pnpm test, which builds)`);
  return file;
}
