import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this build belongs to (apps/api/{src,dist}/ → ../../..), whatever the cwd. */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
