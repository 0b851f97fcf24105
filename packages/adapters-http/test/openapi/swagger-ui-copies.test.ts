import { readFileSync } from 'node:fs';

/**
 * /docs serves adapters-http's own swagger-ui-dist; @nestjs/swagger pins a copy of its own,
 * which pnpm-workspace.yaml overrides with the same range. Were the two ranges to part, the
 * image would carry two Swagger UIs again: the lockfile must resolve one.
 */
describe('swagger-ui-dist', () => {
  it('resolves to one version in the lockfile, so the image carries one copy', () => {
    const lockfile = readFileSync(new URL('../../../../pnpm-lock.yaml', import.meta.url), 'utf8');
    const versions = new Set([...lockfile.matchAll(/^ {2}swagger-ui-dist@([^:]+):$/gm)].map((match) => match[1]));
    expect([...versions]).toHaveLength(1);
  });
});
