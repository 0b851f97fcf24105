import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { createTokenWithCli } from '../../../test-support/built-cli.js';
import { startBuiltServer, type BuiltServer } from '../../../test-support/built-server.mjs';

/**
 * The README's TypeScript examples, run as a reader runs them: in order, each as a module of
 * its own importing the built package, against a new built server on an empty SQLite store.
 * Each must finish without throwing and print what the README says it prints.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(packageDir, 'README.md');

/**
 * What an example assumes with `declare const` (the client "made as above", a signal), made
 * by a module loaded before it with `node --import`. A declaration missing here fails the test.
 */
const PRELUDE = `
import { PlantStoreClient } from '@plantstore/client';
const made = {
  plants: () => new PlantStoreClient({ baseUrl: process.env.PLANTSTORE_URL, token: process.env.PLANTSTORE_TOKEN }),
  userCancelled: () => new AbortController().signal,
};
for (const name of process.env.EXAMPLE_DECLARES.split(',').filter(Boolean)) globalThis[name] = made[name]();
`;
const PRELUDE_MAKES = ['plants', 'userCancelled'];

/** What each example prints, by the README section it is in. */
const PRINTED: [section: string, lines: string[]][] = [
  ['Creating a plant', ["{ name: 'Monstera', tag: 'tropical' }"]],
  [
    'Reading plants',
    ["{ name: 'Monstera', tag: 'tropical' }", 'no plant 404', '9007199254740993n Monstera tropical', '1'],
  ],
  [
    'Changing and deleting plants',
    ["changed meanwhile: { name: 'Ficus lyrata', tag: 'indoor' }", "{ name: 'Ficus lyrata', tag: 'bright-light' }"],
  ],
  ['Changing and deleting plants', ['7001 was deleted', 'id 7001 is retired: choose another']],
  ['Following changes', ["[ 'Monstera', 'Pilea' ]"]],
  ['Following changes', ['Pilea']],
  ['Ids: bigint or decimal string, never number', []],
  ['Retries and deadlines', ['{ baseDelayMs: 200, maxDelayMs: 5000 }']],
  ['Retries and deadlines', []],
  ['Handling them', ['that id already holds another plant; choose another id']],
];

interface Example {
  readonly section: string;
  readonly source: string;
}

/** The ```ts blocks of the README in order, each with the heading it sits under. */
function examples(markdown: string): Example[] {
  const found: Example[] = [];
  let section = '';
  for (const part of markdown.split(/^(```ts\n[\s\S]*?^```)$/m)) {
    if (part.startsWith('```ts\n')) found.push({ section, source: part.slice('```ts\n'.length, -'```'.length) });
    else section = [...part.matchAll(/^#{1,6} (.+)$/gm)].at(-1)?.[1] ?? section;
  }
  return found;
}

function declaredNames(source: string): string[] {
  return [...source.matchAll(/^declare const (\w+)\b/gm)].map((match) => match[1]!);
}

function run(file: string, cwd: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      ['--import', './prelude.mjs', file],
      { cwd, env: { ...process.env, ...env }, timeout: 90_000, encoding: 'utf8' },
      (error, stdout, stderr) => (error ? fail(new Error(stderr || error.message)) : done({ stdout, stderr })),
    ),
  );
}

describe('README examples, run in order against a new built server on SQLite', () => {
  let scratch: string;
  let server: BuiltServer | undefined;
  let token: string;

  beforeAll(async () => {
    if (!existsSync(join(packageDir, 'dist/index.js'))) throw new Error('packages/client is not built: pnpm build');
    scratch = mkdtempSync(join(tmpdir(), 'plantstore-client-readme-'));
    const databaseUrl = `sqlite:${join(scratch, 'plantstore.sqlite')}`;
    ({ token } = await createTokenWithCli(databaseUrl, 'readme-examples'));
    server = await startBuiltServer({ DATABASE_URL: databaseUrl });
    // The examples import '@plantstore/client' as an installed package: the built one.
    mkdirSync(join(scratch, 'node_modules/@plantstore'), { recursive: true });
    symlinkSync(packageDir, join(scratch, 'node_modules/@plantstore/client'), 'dir');
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }),
    );
    writeFileSync(join(scratch, 'prelude.mjs'), PRELUDE);
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('each example runs to its end and prints what the README says', async () => {
    const printed: [string, string[]][] = [];
    for (const [index, { section, source }] of examples(readFileSync(README, 'utf8')).entries()) {
      const declares = declaredNames(source);
      expect({ section, unknownDeclarations: declares.filter((name) => !PRELUDE_MAKES.includes(name)) }).toEqual({
        section,
        unknownDeclarations: [],
      });
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
      });
      const file = `example-${index + 1}.mjs`;
      writeFileSync(join(scratch, file), outputText);
      const env = { PLANTSTORE_URL: server!.url, PLANTSTORE_TOKEN: token, EXAMPLE_DECLARES: declares.join(',') };
      const { stdout } = await run(file, scratch, env).catch((error: Error) => {
        throw new Error(`example ${index + 1} (${section}) failed:\n${error.message}\n${source}`);
      });
      printed.push([section, stdout.split('\n').filter((line) => line !== '')]);
    }
    expect(printed).toEqual(PRINTED);
  }, 300_000);
});
