import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

/**
 * Preloaded into a server under test (`NODE_OPTIONS=--import=<this file>`): records every npm
 * package a module is loaded from, by import or require, and writes their names, one a line,
 * to PLANTSTORE_TEST_LOADED_PACKAGES_FILE when the process exits.
 */
const file = process.env['PLANTSTORE_TEST_LOADED_PACKAGES_FILE'];
const packages = new Set();
const packageOf = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/;

if (file !== undefined) {
  registerHooks({
    load(url, context, nextLoad) {
      const name = packageOf.exec(url)?.[1];
      if (name !== undefined) packages.add(name);
      return nextLoad(url, context);
    },
  });
  process.on('exit', () => writeFileSync(file, [...packages].sort().join('\n')));
}
