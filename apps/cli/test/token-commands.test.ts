import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDataSource, parseDatabaseUrl } from '@plantstore/adapters-persistence';

// The real binary, as `pnpm plantstore` runs it; `pnpm test` builds it first.
const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '../../..');
const cli = resolve(repoRoot, 'apps/cli/dist/main.js');

const TOKEN_SHAPE = /^pst_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface CreatedToken {
  id: string;
  name: string;
  token: string;
  scopes: string[];
  expiresAt: string | null;
  createdAt: string;
}

interface ListedToken {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

let dir: string;
let databaseFile: string;

function plantstore(args: string[], options: { databaseUrl?: string; cwd?: string } = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: options.databaseUrl ?? `sqlite:${databaseFile}` };
  delete env['PLANTSTORE_DEBUG'];
  const result = spawnSync(process.execPath, [cli, ...args], {
    env,
    cwd: options.cwd ?? dir,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

function createToken(...args: string[]): CreatedToken {
  const run = plantstore(['token', 'create', ...args, '--json']);
  expect(run).toMatchObject({ status: 0, stderr: '' });
  return JSON.parse(lastLine(run.stdout)) as CreatedToken;
}

function listTokens(): ListedToken[] {
  const run = plantstore(['token', 'list', '--json']);
  expect(run).toMatchObject({ status: 0, stderr: '' });
  return JSON.parse(lastLine(run.stdout)) as ListedToken[];
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A usage or operation error: one message line and at most a hint, never a stack trace. */
function expectCleanError(run: Run, status: number, message: string | RegExp): void {
  expect(run.status).toBe(status);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^plantstore: /);
  expect(lines[0]).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`pnpm build\` first`);
  dir = mkdtempSync(join(tmpdir(), 'plantstore-cli-'));
  databaseFile = join(dir, 'store.sqlite');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('plantstore token create', () => {
  it('prints the token once as JSON, with plants:write and plants:read by default and no expiry', () => {
    const before = Date.now();
    const created = createToken('--name', 'ci deploy');
    const after = Date.now();

    expect(Object.keys(created).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'name', 'scopes', 'token']);
    expect(created.token).toMatch(TOKEN_SHAPE);
    expect(created).toMatchObject({ name: 'ci deploy', scopes: ['plants:write', 'plants:read'], expiresAt: null });
    expect(created.id).toMatch(/^\S+$/);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(created.createdAt)).toBeLessThanOrEqual(after);
  });

  it('takes several --scope flags and --expires-in 30d', () => {
    const before = Date.now();
    const created = createToken(
      '--name',
      'monitoring',
      '--scope',
      'plants:read',
      '--scope',
      'plants:write',
      '--expires-in',
      '30d',
    );
    const after = Date.now();

    expect(created.scopes).toEqual(['plants:read', 'plants:write']);
    expect(created.expiresAt).not.toBeNull();
    const expiresAt = Date.parse(created.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * DAY_MS);
    expect(expiresAt - Date.parse(created.createdAt)).toBe(30 * DAY_MS);
  });

  it('shows id, name, scopes, expiry and the token with a shown-once warning in human output', () => {
    const run = plantstore(['token', 'create', '--name', 'laptop', '--expires-in', '12h']);

    expect(run).toMatchObject({ status: 0, stderr: '' });
    const token = run.stdout.match(/pst_[A-Za-z0-9_-]{43}/)?.[0] ?? '';
    expect(token).toMatch(TOKEN_SHAPE);
    expect(run.stdout).toMatch(/^\s*id:\s+\S+$/m);
    expect(run.stdout).toMatch(/^\s*name:\s+laptop$/m);
    expect(run.stdout).toMatch(/^\s*scopes:\s+plants:write plants:read$/m);
    expect(run.stdout).toMatch(/^\s*expires:\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    expect(run.stdout).toMatch(/shown only once/);
  });

  it('stores only the SHA-256 hash of the token, never the token', async () => {
    const created = createToken('--name', 'hash check');

    const rows = await readApiTokenRows();
    const row = rows.find((r) => r['id'] === created.id);
    expect(row).toMatchObject({
      name: 'hash check',
      token_hash: sha256(created.token),
      scopes: 'plants:write plants:read',
    });
    expect(JSON.stringify(rows)).not.toContain(created.token);
    // Nor anywhere in the files SQLite wrote (main file and write-ahead log).
    for (const file of [databaseFile, `${databaseFile}-wal`].filter(existsSync)) {
      expect(readFileSync(file).includes(created.token)).toBe(false);
    }
  });

  it.each([
    [['token', 'create'], /--name is required/],
    [['token', 'create', '--name'], /--name/],
    [['token', 'create', '--name', 'x', '--expires-in', '30'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--expires-in', '1w'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--expires-in', '0d'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--expires-in', '-5d'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--expires-in', '1.5h'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--colour'], /--colour/],
    [['token', 'create', '--name', 'x', 'extra'], /extra/],
  ])('refuses %j as a usage error (exit 2)', (args, message) => {
    const run = plantstore(args);

    expectCleanError(run, 2, message);
    expect(run.stderr).toMatch(/Usage: plantstore token create/);
  });

  it('refuses an unknown scope, naming it and the known ones', () => {
    const run = plantstore(['token', 'create', '--name', 'x', '--scope', 'plants:delete']);

    expectCleanError(run, 2, /unknown scope plants:delete.*plants:write, plants:read/);
  });

  it('refuses a name the domain does not accept', () => {
    expectCleanError(plantstore(['token', 'create', '--name', '   ']), 2, /name must not be only white space/);
  });
});

describe('plantstore token list', () => {
  let first: CreatedToken;
  let second: CreatedToken;

  beforeAll(() => {
    first = createToken('--name', 'listed one');
    second = createToken('--name', 'listed two', '--scope', 'plants:read', '--expires-in', '90s');
  });

  it('prints a table with id, name, scopes, dates and status', () => {
    const run = plantstore(['token', 'list']);

    expect(run).toMatchObject({ status: 0, stderr: '' });
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'STATUS']);
    const rowOf = (id: string) => rows.find((row) => row.startsWith(`${id} `))?.split(/\s{2,}/);
    expect(rowOf(first.id)).toEqual([
      first.id,
      'listed one',
      'plants:write plants:read',
      expect.stringMatching(/^\d{4}-.*Z$/),
      'never',
      'active',
    ]);
    expect(rowOf(second.id)).toEqual([
      second.id,
      'listed two',
      'plants:read',
      expect.stringMatching(/^\d{4}-.*Z$/),
      expect.stringMatching(/^\d{4}-.*Z$/),
      'active',
    ]);
  });

  it('prints one JSON array on the last line with --json', () => {
    const listed = listTokens();

    expect(listed.find((t) => t.id === first.id)).toEqual({
      id: first.id,
      name: 'listed one',
      scopes: ['plants:write', 'plants:read'],
      createdAt: first.createdAt,
      expiresAt: null,
      revokedAt: null,
      status: 'active',
    });
    expect(listed.find((t) => t.id === second.id)).toMatchObject({
      scopes: ['plants:read'],
      expiresAt: second.expiresAt,
      status: 'active',
    });
  });

  it('never prints a token or its hash, in either format', () => {
    const outputs = [plantstore(['token', 'list']), plantstore(['token', 'list', '--json'])].map(
      (run) => run.stdout + run.stderr,
    );

    for (const output of outputs) {
      for (const created of [first, second]) {
        expect(output).toContain(created.id);
        expect(output).not.toContain(created.token);
        expect(output).not.toContain(sha256(created.token));
      }
      expect(output).not.toMatch(/pst_/);
      expect(output).not.toMatch(/[0-9a-f]{64}/);
    }
  });

  it('shows an expired token as expired', async () => {
    const shortLived = createToken('--name', 'short lived', '--expires-in', '1s');
    await new Promise((done) => setTimeout(done, 1_100));

    expect(listTokens().find((t) => t.id === shortLived.id)?.status).toBe('expired');
  });
});

describe('plantstore token revoke', () => {
  it('revokes a token, says when servers refuse it, and list shows it revoked', () => {
    const doomed = createToken('--name', 'to revoke');
    const kept = createToken('--name', 'to keep');

    const run = plantstore(['token', 'revoke', doomed.id]);

    expect(run).toMatchObject({ status: 0, stderr: '' });
    expect(run.stdout).toContain(doomed.id);
    expect(run.stdout).toMatch(/within 5 s/);
    const listed = listTokens();
    expect(listed.find((t) => t.id === doomed.id)).toMatchObject({
      status: 'revoked',
      revokedAt: expect.stringMatching(/Z$/),
    });
    expect(listed.find((t) => t.id === kept.id)).toMatchObject({ status: 'active', revokedAt: null });
    const table = plantstore(['token', 'list']).stdout;
    expect(table.split('\n').find((line) => line.startsWith(doomed.id))).toMatch(/\srevoked$/);
  });

  it('says a token was already revoked, and when, rather than revoking it again (exit 0)', () => {
    const token = createToken('--name', 'revoked twice');
    expect(plantstore(['token', 'revoke', token.id]).status).toBe(0);
    const firstTime = listTokens().find((t) => t.id === token.id)?.revokedAt ?? '';

    const again = plantstore(['token', 'revoke', token.id]);

    expect(again).toEqual({
      status: 0,
      stdout: `Token ${token.id} was already revoked at ${firstTime.replace(/\.\d{3}Z$/, 'Z')}; nothing changed.\n`,
      stderr: '',
    });
    expect(listTokens().find((t) => t.id === token.id)?.revokedAt).toBe(firstTime);
  });

  it('fails with exit 1 for an unknown id', () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectCleanError(plantstore(['token', 'revoke', unknown]), 1, new RegExp(`no API token with id ${unknown}`));
  });

  it('refuses an id that is not a UUID as a usage error (exit 2), before the database is opened', () => {
    const untouched = join(dir, 'never-created.sqlite');
    const run = plantstore(['token', 'revoke', 'not-a-uuid'], { databaseUrl: `sqlite:${untouched}` });

    expectCleanError(run, 2, /"not-a-uuid" is not a token id/);
    expect(existsSync(untouched)).toBe(false);
  });

  it.each([[['token', 'revoke']], [['token', 'revoke', 'a', 'b']]])('refuses %j as a usage error', (args) => {
    expectCleanError(plantstore(args), 2, /token id/);
  });
});

describe('plantstore commands and help', () => {
  it.each([[[]], [['frob']], [['token']], [['token', 'frob']], [['help', 'frob']]])(
    'refuses %j with exit 2 and a hint',
    (args) => {
      const run = plantstore(args);

      expectCleanError(run, 2, /command/);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(2);
      expect(run.stderr).toMatch(/--help/);
    },
  );

  it.each([[['--help']], [['-h']], [['help']]])('%j lists every command', (args) => {
    const run = plantstore(args);

    expect(run).toMatchObject({ status: 0, stderr: '' });
    expect(run.stdout).toContain('token create --name NAME');
    expect(run.stdout).toContain('token list');
    expect(run.stdout).toContain('token revoke <id>');
    expect(run.stdout).toContain('DATABASE_URL');
  });

  it.each([[['token', 'create', '--help']], [['help', 'token', 'create']]])(
    '%j shows the help of one command',
    (args) => {
      const run = plantstore(args);

      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Usage: plantstore token create /);
      expect(run.stdout).toContain('--expires-in');
    },
  );

  it('does not create a database for a usage error', () => {
    const untouched = join(dir, 'untouched.sqlite');

    expect(plantstore(['token', 'create'], { databaseUrl: `sqlite:${untouched}` }).status).toBe(2);
    expect(existsSync(untouched)).toBe(false);
  });

  it.each([
    [['token', 'create', '--name', 'x', '--scope', 'admin'], /unknown scope admin/],
    [
      ['token', 'create', '--name', 'x', '--scope', 'plants:read', '--scope', 'Plants:Write'],
      /unknown scope Plants:Write/,
    ],
    [['token', 'create', '--name', 'x', '--expires-in', '3000000d'], /expire after the year 9999/],
    [['token', 'create', '--name', '   '], /name must not be only white space/],
    [['token', 'create', '--name', 'x'.repeat(101)], /name/],
    [['token', 'create', '--name', 'x', '--expires-in', '1w'], /--expires-in/],
    [['token', 'create', '--name', 'x', '--colour'], /--colour/],
    [['token', 'list', 'extra'], /extra/],
    [['token', 'revoke'], /token id/],
    [['token', 'revoke', 'a', 'b'], /token id/],
    [['token', 'frob'], /unknown token command/],
    [['--version', 'extra'], /--version takes no arguments/],
  ])('reports %j as a usage error before any database is created', (args, message) => {
    const untouched = join(dir, 'never-created.sqlite');

    expectCleanError(plantstore(args, { databaseUrl: `sqlite:${untouched}` }), 2, message);
    expect(existsSync(untouched)).toBe(false);
  });

  it.each([[['--version']], [['-V']]])('%j prints the version of the CLI package and nothing else', (args) => {
    const { version } = JSON.parse(readFileSync(resolve(repoRoot, 'apps/cli/package.json'), 'utf8')) as {
      version: string;
    };

    expect(plantstore(args)).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('plantstore database selection', () => {
  it('resolves a relative sqlite: path against the current directory', () => {
    mkdirSync(join(dir, 'nested'), { recursive: true });
    const run = plantstore(['token', 'list'], { databaseUrl: 'sqlite:nested/relative.sqlite', cwd: dir });

    expect(run.status).toBe(0);
    expect(existsSync(join(dir, 'nested', 'relative.sqlite'))).toBe(true);
  });

  it('refuses a sqlite: path in a directory that does not exist (exit 2), creating nothing', () => {
    const run = plantstore(['token', 'list'], { databaseUrl: 'sqlite:missing/dir/x.sqlite', cwd: dir });

    expectCleanError(run, 2, /^plantstore: DATABASE_URL names a SQLite file in .*missing\/dir, which does not exist/);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('refuses a DATABASE_URL of an unknown kind as a usage error naming the variable', () => {
    expectCleanError(plantstore(['token', 'list'], { databaseUrl: 'mysql://localhost/plants' }), 2, /DATABASE_URL/);
  });

  it('refuses a SQLite path under a plain file as a usage error naming DATABASE_URL (exit 2)', () => {
    const notADirectory = join(dir, 'plain-file');
    writeFileSync(notADirectory, 'x');

    expectCleanError(
      plantstore(['token', 'list'], { databaseUrl: `sqlite:${notADirectory}/store.sqlite` }),
      2,
      /^plantstore: DATABASE_URL names a SQLite file in .*plain-file, which is not a directory$/,
    );
  });

  it('reports an unusable SQLite file as database unavailable (exit 1)', () => {
    const aDirectory = join(dir, 'a-directory.sqlite');
    mkdirSync(aDirectory, { recursive: true });

    expectCleanError(
      plantstore(['token', 'list'], { databaseUrl: `sqlite:${aDirectory}` }),
      1,
      /^plantstore: database unavailable: /,
    );
  });

  it('reports an unreachable PostgreSQL without its password (exit 1)', () => {
    const run = plantstore(['token', 'list'], { databaseUrl: 'postgres://admin:s3cret-pw@127.0.0.1:1/plants' });

    expectCleanError(run, 1, /^plantstore: database unavailable: postgres:\/\/admin:\*\*\*@127\.0\.0\.1:1\/plants/);
    expect(run.stderr).not.toContain('s3cret-pw');
  });
});

type Row = Record<string, unknown>;

/** Reads the table as stored, through the persistence package rather than the CLI under test. */
async function readApiTokenRows(): Promise<Row[]> {
  const dataSource = await openDataSource(parseDatabaseUrl(`sqlite:${databaseFile}`, databaseFile));
  try {
    return await dataSource.query<Row[]>('SELECT * FROM api_token');
  } finally {
    await dataSource.destroy();
  }
}
