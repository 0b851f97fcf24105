import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHECK = join(repositoryRoot, 'scripts/check-self-contained.mjs');
// The planted violations are assembled at run time, so this file does not trip the check itself.
const UP = '..';
const climb = (levels: number, rest: string) => [...Array<string>(levels).fill(UP), rest].join('/');

function check(root: string) {
  const run = spawnSync(process.execPath, [CHECK, root], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** A scratch tree (not a git checkout) holding the given files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'self-contained-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the self-contained check of pnpm lint', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const scratch = (files: Record<string, string>) => {
    const root = tree(files);
    roots.push(root);
    return root;
  };

  it('passes on this repository', () => {
    expect(check(repositoryRoot)).toMatchObject({ status: 0 });
  });

  it('passes relative paths that stay inside the repository', () => {
    const root = scratch({
      'apps/api/src/root.ts': `resolve(here, '${climb(2, UP)}');\nimport x from '${climb(1, 'x.js')}';\n`,
      'README.md': '[docs](docs/a.md)\n',
    });
    expect(check(root)).toMatchObject({ status: 0 });
  });

  it('fails on a path that climbs out of the repository, naming the file and line', () => {
    const root = scratch({
      'apps/api/test/corpus.ts': `const a = 1;\nconst CORPUS = resolve(repositoryRoot, '${climb(1, ['shared', 'corpora', 'json-test-suite'].join('/'))}');\n`,
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toContain('apps/api/test/corpus.ts:2');
  });

  it('fails on a relative path deeper than the file sits', () => {
    const root = scratch({
      'scripts/x.mjs': `readFileSync(new URL('${climb(2, 'elsewhere/data.json')}', import.meta.url));\n`,
    });
    expect(check(root)).toMatchObject({ status: 1 });
  });

  it('fails on a citation of a document kept outside the repository', () => {
    for (const citation of [`as ${'DESIGN'}.md decides`, `see ${'DESIGN'} §4`, `implements plant-store-${'spec'}.md`]) {
      const root = scratch({ 'packages/domain/src/x.ts': `// ${citation}\n` });
      expect(check(root)).toMatchObject({ status: 1 });
    }
  });
});
