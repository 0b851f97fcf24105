import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * What a server loads of @nestjs/swagger: nothing with the package's index (every import of
 * the server's, which defines the controllers), all of it with the document's builder, which
 * the store imports on the first GET /openapi.json. .dependency-cruiser.cjs holds the
 * project's own imports to that; this is the runtime's word, which also sees a dependency
 * loading swagger (Terminus' @HealthCheck() does, unless told not to). Read from the build,
 * in a Node process of its own whose module loads a hook records.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const repositoryRoot = resolve(packageDir, '../..');
const tsc = join(repositoryRoot, 'node_modules/.bin/tsc');

const PROBE = `
import { registerHooks } from 'node:module';
const swagger = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.includes('/node_modules/@nestjs/swagger/')) swagger.add(url);
    return nextLoad(url, context);
  },
});
const [index, builder] = process.argv.slice(-2);
await import(index);
const withIndex = swagger.size;
await import(builder);
console.log(JSON.stringify({ withIndex, withBuilder: swagger.size }));
`;

describe('@nestjs/swagger, loaded on the first request for the document', () => {
  let loaded: { withIndex: number; withBuilder: number };

  beforeAll(() => {
    const build = spawnSync(tsc, ['-b', packageDir], { cwd: repositoryRoot, encoding: 'utf8' }); // a no-op after `pnpm build`
    if (build.status !== 0) throw new Error(`tsc -b failed:\n${build.stdout}${build.stderr}`);
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        PROBE,
        pathToFileURL(join(packageDir, 'dist/index.js')).href,
        pathToFileURL(join(packageDir, 'dist/openapi-document-builder.js')).href,
      ],
      { cwd: packageDir, encoding: 'utf8', timeout: 60_000 },
    );
    if (probe.status !== 0) throw new Error(`the probe failed (${probe.status ?? probe.signal}):\n${probe.stderr}`);
    loaded = JSON.parse(probe.stdout.trim().split('\n').at(-1)!) as typeof loaded;
  }, 120_000);

  it('is not loaded by the package index, controllers and all', () => {
    expect(loaded.withIndex).toBe(0);
  });

  it("is loaded by the document's builder (so the probe sees it)", () => {
    expect(loaded.withBuilder).toBeGreaterThan(10);
  });
});
