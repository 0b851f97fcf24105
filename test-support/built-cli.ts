import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { builtFile, repositoryRoot } from './repository-root.mjs';

/** The admin CLI's entry point, as `pnpm plantstore` runs it; `pnpm test` builds it first. */
export const CLI_JS = resolve(repositoryRoot, 'apps/cli/dist/main.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node apps/cli/dist/main.js <args>` with `env` added: the `plantstore` binary. */
export function runCli(args: readonly string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliResult> {
  const main = builtFile(CLI_JS);
  return new Promise((done) => {
    execFile(
      process.execPath,
      [main, ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The CLI on the database at `databaseUrl`: resolves with its stdout, rejects when it fails. */
export async function cliOutput(databaseUrl: string, args: readonly string[]): Promise<string> {
  const result = await runCli(args, { DATABASE_URL: databaseUrl }, 30_000);
  if (result.code !== 0) throw new Error(`plantstore ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** A token issued as an operator does it, `plantstore token create --json`, whose last stdout line is the token as JSON. */
export async function createTokenWithCli(
  databaseUrl: string,
  name: string,
  scopes: readonly string[] = [],
): Promise<{ id: string; token: string }> {
  const stdout = await cliOutput(databaseUrl, [
    'token',
    'create',
    '--name',
    name,
    ...scopes.flatMap((s) => ['--scope', s]),
    '--json',
  ]);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  const parsed = JSON.parse(last) as { id?: unknown; token?: unknown };
  if (typeof parsed.id !== 'string' || typeof parsed.token !== 'string')
    throw new Error(`unexpected CLI output: ${last}`);
  return { id: parsed.id, token: parsed.token };
}

export interface StoredPlant {
  /** Every digit, as a decimal string. */
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
}

/** Every stored plant, read with `plantstore plants export` (NDJSON, ids exact). */
export async function storedPlants(databaseUrl: string): Promise<StoredPlant[]> {
  const ndjson = await cliOutput(databaseUrl, ['plants', 'export', '--format', 'ndjson']);
  return ndjson
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line.replace(/^\{"id":(-?[0-9]+)/, '{"id":"$1"')) as StoredPlant);
}
