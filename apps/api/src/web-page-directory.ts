import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the catalogue page is built: beside this app, `apps/web/dist` in the checkout
 * (apps/api/dist → ../../web/dist) and `/app/web/dist` in the container image, where the
 * server runs from /app/api/dist.
 */
export const webPageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
