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

  it('pass adapters-http folders that import only the floors below them', () => {
    const layered = {
      ...cleanWorkspace,
      'packages/adapters-http/src/errors/failures.ts': 'export const failure = 1;\n',
      'packages/adapters-http/src/auth/guard.ts': `import { failure } from '${up(1, 'errors/failures.js')}';\nexport const guard = failure;\n`,
      'packages/adapters-http/src/pipeline/install.ts': `import { guard } from '${up(1, 'auth/guard.js')}';\nexport const install = guard;\n`,
      'packages/adapters-http/src/module.ts': `import { install } from './pipeline/install.js';\nexport const wiring = install;\n`,
    };
    expect(cruise(layered)).toMatchObject({ status: 0 });
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
      'a folder of adapters-http imports one on a floor above it',
      'adapters-http-floors',
      {
        'packages/adapters-http/src/errors/error-reply.ts': `import { events } from '${up(1, 'observability/events.js')}';\nexport const reply = events;\n`,
        'packages/adapters-http/src/observability/events.ts': 'export const events = 1;\n',
      },
    ],
    [
      'a folder of adapters-http imports one beside it on its floor',
      'adapters-http-floors',
      {
        'packages/adapters-http/src/auth/guard.ts': `import { body } from '${up(1, 'body/read.js')}';\nexport const guard = body;\n`,
        'packages/adapters-http/src/body/read.ts': 'export const body = 1;\n',
      },
    ],
    [
      'a folder of adapters-http imports a file at the top of src',
      'adapters-http-floors',
      {
        'packages/adapters-http/src/plants/controller.ts': `import { wiring } from '${up(1, 'module.js')}';\nexport const controller = wiring;\n`,
        'packages/adapters-http/src/module.ts': 'export const wiring = 1;\n',
      },
    ],
    [
      'a route folder of adapters-http imports another route folder',
      'adapters-http-routes-stand-alone',
      {
        'packages/adapters-http/src/plants/create/controller.ts': `import { read } from '${up(1, 'get/read.js')}';\nexport const controller = read;\n`,
        'packages/adapters-http/src/plants/get/read.ts': 'export const read = 1;\n',
      },
    ],
    [
      'a folder of adapters-persistence imports one on a floor above it',
      'adapters-persistence-floors',
      {
        'packages/adapters-persistence/src/connection/runner.ts': `import { rows } from '${up(1, 'plants/rows.js')}';\nexport const runner = rows;\n`,
        'packages/adapters-persistence/src/plants/rows.ts': 'export const rows = 1;\n',
      },
    ],
    [
      'adapters-http gains a folder that is on no floor',
      'adapters-http-folder-on-a-floor',
      {
        'packages/adapters-http/src/misc/helper.ts': 'export const helper = 1;\n',
        'packages/adapters-http/src/index.ts': `import { helper } from './misc/helper.js';\nexport const x = helper;\n`,
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
