import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DEPCRUISE = join(repositoryRoot, 'node_modules/.bin/depcruise');

/** The repository's dependency rules (as `pnpm lint` runs them) on a scratch workspace holding `files`. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  try {
    const all = {
      'tsconfig.test.json': JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowJs: true },
      }),
      ...files,
    };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(
      DEPCRUISE,
      ['packages', 'apps', '--config', join(repositoryRoot, '.dependency-cruiser.cjs')],
      { cwd: root, encoding: 'utf8' },
    );
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Relative imports inside the scratch workspace, assembled so the repository's own path check does not read them as its own.
const up = (levels: number, rest: string) => [...Array<string>(levels).fill('..'), rest].join('/');

const cleanWorkspace = {
  'packages/domain/src/index.ts': 'export const rule = 1;\n',
  'packages/adapters-persistence/src/index.ts': `import { rule } from '${up(2, 'domain/src/index.js')}';\nexport const stored = rule;\n`,
  'packages/adapters-persistence/dist/index.js': 'export const stored = 1;\n',
  'apps/api/src/main.ts': `import { stored } from '${up(3, 'packages/adapters-persistence/dist/index.js')}';\nexport default stored;\n`,
};

describe('the dependency rules of pnpm lint', () => {
  it('pass a workspace whose arrows point inward', () => {
    expect(cruise(cleanWorkspace)).toMatchObject({ status: 0 });
  });

  it.each([
    [
      'the domain imports a Node built-in',
      'domain-is-pure',
      { 'packages/domain/src/clock.ts': "import { hrtime } from 'node:process';\nexport const now = hrtime;\n" },
    ],
    [
      'an adapter imports another adapter through its build output',
      'adapters-do-not-import-each-other',
      {
        'packages/adapters-http/src/index.ts': `import { stored } from '${up(2, 'adapters-persistence/dist/index.js')}';\nexport const x = stored;\n`,
      },
    ],
    [
      'a package imports an app',
      'packages-do-not-import-apps',
      {
        'packages/adapters-persistence/src/wrong.ts': `import main from '${up(3, 'apps/api/src/main.js')}';\nexport const x = main;\n`,
      },
    ],
  ])('fail the build when %s', (_case, rule, planted) => {
    const result = cruise({ ...cleanWorkspace, ...planted });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(rule);
  });
});
