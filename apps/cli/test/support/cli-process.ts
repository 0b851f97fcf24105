import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The real binary, as `pnpm plantstore` runs it; `pnpm test` builds it first.
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
export const CLI = resolve(repoRoot, 'apps/cli/dist/main.js');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  readonly databaseUrl: string;
  readonly cwd: string;
  readonly input?: string | Buffer;
}

function environment(databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
  delete env['PLANTSTORE_DEBUG'];
  return env;
}

export function plantstore(args: readonly string[], options: CliOptions): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: environment(options.databaseUrl),
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: 50_000,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the CLI without waiting, for tests that interrupt it. */
export function startPlantstore(args: readonly string[], options: CliOptions) {
  const child = spawn(process.execPath, [CLI, ...args], { env: environment(options.databaseUrl), cwd: options.cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<Run>((done) => child.on('close', (status) => done({ status, stdout, stderr })));
  return { child, exited };
}

export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}
