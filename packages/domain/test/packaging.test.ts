import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeCheckExamples } from '../../../test-support/packed-package.js';

/**
 * The package as another team gets it: packed with `pnpm pack`, installed from the tarball
 * into a project outside the workspace, type-checked strictly and run. Nothing is published.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(packageDir, '../..');
const tsc = join(repositoryRoot, 'node_modules/.bin/tsc');
const SLOW = 180_000;
/** The version the tarball says it is: package.json's, which moves with CHANGELOG.md. */
const DOMAIN_VERSION = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string })
  .version;

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('@plantstore/domain as a packed tarball', () => {
  let scratch: string;
  let tarball: string;
  let unpacked: string;
  let files: string[];

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'plantstore-domain-pack-'));
    run(tsc, ['-b', packageDir], repositoryRoot); // a no-op after `pnpm build`
    run('pnpm', ['pack', '--pack-destination', scratch], packageDir);
    const [name, ...others] = readdirSync(scratch).filter((file) => file.endsWith('.tgz'));
    if (name === undefined || others.length > 0) throw new Error(`expected one tarball in ${scratch}`);
    tarball = join(scratch, name);
    run('tar', ['-xzf', tarball, '-C', scratch], scratch);
    unpacked = join(scratch, 'package');
    files = filesUnder(unpacked);
  }, SLOW);
  afterAll(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the documents, the build and its sources, and no build state', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/testing/index.js',
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
    expect(readFileSync(join(unpacked, 'LICENSE'), 'utf8')).toBe(readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8'));
  });

  it('ships exactly the compiled form of each source file: nothing stale, nothing missing', () => {
    const compiled = files
      .filter((file) => file.startsWith('dist/') && file.endsWith('.js'))
      .map((file) => file.slice('dist/'.length, -'.js'.length));
    const sources = files
      .filter((file) => file.startsWith('src/'))
      .map((file) => file.slice('src/'.length, -'.ts'.length));
    // tsc never deletes the output of a removed source file; a publish must not carry it.
    const stale = compiled.filter((module) => !sources.includes(module));
    if (stale.length > 0)
      throw new Error(
        `dist/ holds output of removed sources (${stale.join(', ')}): rm -rf packages/domain/dist && pnpm build`,
      );
    expect(compiled).toEqual(sources);
    for (const module of compiled) {
      expect(files).toEqual(
        expect.arrayContaining([`dist/${module}.js.map`, `dist/${module}.d.ts`, `dist/${module}.d.ts.map`]),
      );
    }
  });

  it('has source maps and declaration maps that resolve to the shipped sources', () => {
    const maps = files.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(40);
    for (const map of maps) {
      const { sources, sourceRoot = '' } = JSON.parse(readFileSync(join(unpacked, map), 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
      };
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        const target = resolve(unpacked, dirname(map), sourceRoot, source);
        expect({ map, resolves: target.startsWith(unpacked) && existsSync(target) }).toEqual({ map, resolves: true });
      }
    }
  });

  it('declares itself as a package another team can install: public, ESM, engines, no side effects, closed exports', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('private');
    expect(manifest).toMatchObject({
      name: '@plantstore/domain',
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      engines: { node: '>=24 <25 || >=26 <27' },
    });
    expect(Object.keys(manifest['exports'] as object)).toEqual(['.', './testing', './package.json']);
    expect(manifest['dependencies'] ?? {}).toEqual({});
  });

  it(
    'README: every TypeScript example compiles as written against the tarball',
    () => {
      const packed = { name: '@plantstore/domain', tarball, unpacked, files };
      expect(typeCheckExamples(join(packageDir, 'README.md'), [packed], scratch)).toBeGreaterThanOrEqual(4);
    },
    SLOW,
  );

  describe('installed in a second app outside the workspace', () => {
    let app: string;

    beforeAll(() => {
      app = join(scratch, 'domain-reuse');
      cpSync(join(repositoryRoot, 'examples/domain-reuse'), app, {
        recursive: true,
        filter: (path) => !/(^|\/)(node_modules|dist)$/.test(path),
      });
      // Offline: the domain has no dependencies, so the tarball is all npm needs.
      run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], app);
    }, SLOW);

    it(
      "type-checks strictly (nodenext, the package's own .d.ts included) and creates plants, issues and authenticates a token",
      () => {
        run(tsc, ['-p', app], app);
        expect(run(process.execPath, ['dist/main.js'], app).trimEnd().split('\n')).toEqual([
          'created {"id":"9007199254740993","name":"Monstera","tag":"Araceae"}',
          'replayed {"id":"9007199254740993","name":"Monstera","tag":"Araceae"}',
          'refused PLANT_CONFLICT: A plant with id 9007199254740993 already exists with a different name or tag; choose another id.',
          'refused PLANT_INVALID: The plant is invalid: name must be 1 to 200 characters long (got 0).',
          'issued a token of 47 characters; authenticated as itself: true',
          'may write plants: true; may read: false',
          'a token never issued: unknown',
          'MapPlantRepository passed 9 of 9 PlantRepository contract checks',
        ]);
      },
      SLOW,
    );

    it('can be required from CommonJS, and refuses deep imports past its exports', () => {
      const script = [
        "const domain = require('@plantstore/domain');",
        "const testing = require('@plantstore/domain/testing');",
        "const { version } = require('@plantstore/domain/package.json');",
        "let deep = 'allowed';",
        "try { require('@plantstore/domain/dist/common/text-rules.js'); } catch (error) { deep = error.code; }",
        'console.log(typeof domain.CreatePlant, typeof testing.tokenRepositoryContract, version, deep);',
      ].join('\n');
      expect(run(process.execPath, ['--input-type=commonjs', '-e', script], app).trim()).toBe(
        `function function ${DOMAIN_VERSION} ERR_PACKAGE_PATH_NOT_EXPORTED`,
      );
    });
  });
});

describe('the version', () => {
  it('is the newest release its CHANGELOG names', () => {
    const changelog = readFileSync(join(packageDir, 'CHANGELOG.md'), 'utf8');
    expect(/^## \[?(\d+\.\d+\.\d+)/m.exec(changelog)?.[1]).toBe(DOMAIN_VERSION);
  });
});
