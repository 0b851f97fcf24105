import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage, typeCheckExamples, type PackedPackage } from '../../../test-support/packed-package.js';

/**
 * The client as another team gets it: packed with `pnpm pack`, its contents checked, and
 * every TypeScript example of its README type-checked against the tarball. Nothing is published.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(packageDir, '../..');
const SLOW = 180_000;

describe('@plantstore/client as a packed tarball', () => {
  let scratch: string;
  let packed: PackedPackage;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'plantstore-client-pack-'));
    packed = packPackage(packageDir, scratch);
  }, SLOW);
  afterAll(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds its README, licence and changelog, the build and its sources, and no build state', () => {
    const { files } = packed;
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'dist/index.js',
        'dist/index.d.ts',
        'src/index.ts',
      ]),
    );
    expect(files.filter((file) => file.includes('tsbuildinfo'))).toEqual([]);
    expect(files.filter((file) => !/^(dist|src)\//.test(file))).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    expect(readFileSync(join(packed.unpacked, 'LICENSE'), 'utf8')).toBe(
      readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8'),
    );
    const compiled = files.filter((file) => /^dist\/.*\.js$/.test(file)).map((file) => file.slice(5, -3));
    const sources = files.filter((file) => file.startsWith('src/')).map((file) => file.slice(4, -3));
    expect(compiled).toEqual(sources); // nothing stale from a removed source, nothing missing
  });

  it('has source maps and declaration maps that resolve inside the tarball', () => {
    const maps = packed.files.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThanOrEqual(12);
    for (const map of maps) {
      const { sources, sourceRoot = '' } = JSON.parse(readFileSync(join(packed.unpacked, map), 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
      };
      for (const source of sources) {
        const target = resolve(packed.unpacked, dirname(map), sourceRoot, source);
        expect({ map, resolves: target.startsWith(packed.unpacked) && existsSync(target) }).toEqual({
          map,
          resolves: true,
        });
      }
    }
  });

  it('declares itself as a package another team can install: public, ESM, engines, no dependencies, closed exports', () => {
    const manifest = JSON.parse(readFileSync(join(packed.unpacked, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('private');
    expect(manifest).toMatchObject({
      name: '@plantstore/client',
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      engines: { node: expect.any(String) as unknown },
    });
    expect(Object.keys(manifest['exports'] as object)).toEqual(['.', './package.json']);
    expect(manifest['dependencies'] ?? {}).toEqual({});
  });

  it(
    'README: every TypeScript example compiles as written against the tarball',
    () => {
      expect(typeCheckExamples(join(packageDir, 'README.md'), [packed], scratch)).toBeGreaterThanOrEqual(5);
    },
    SLOW,
  );

  it(
    "the repository README's client example compiles as written against the tarball",
    () => {
      expect(typeCheckExamples(join(repositoryRoot, 'README.md'), [packed], scratch)).toBe(1);
    },
    SLOW,
  );
});
