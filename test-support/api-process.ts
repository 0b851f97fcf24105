import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

export { freePort };

/**
 * The built server and admin CLI as an operator runs them (`node apps/*\/dist/main.js`), for
 * suites outside apps/api (the client's e2e tests). `pnpm test` builds first.
 */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_JS = join(repositoryRoot, 'apps/api/dist/main.js');
const CLI_JS = join(repositoryRoot, 'apps/cli/dist/main.js');

function built(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (pnpm build, or pnpm test, which builds)`);
  return file;
}

export interface ApiProcess {
  readonly url: string;
  readonly port: number;
  /** Sends `signal` (SIGTERM by default) and resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `node apps/api/dist/main.js` on 127.0.0.1:`port` (a free one by default) with `env` added;
 * resolves once GET /healthz answers 200, rejects with the server's stderr if it exits first.
 * `log`, when given, receives what the server writes to stdout (its JSON log lines).
 */
export async function startApiProcess(
  env: Record<string, string>,
  port?: number,
  timeoutMs = 30_000,
  log?: (chunk: string) => void,
): Promise<ApiProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, [built(SERVER_JS)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(listenPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Read even when nobody listens: a full pipe would block the server's writes.
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => log?.(chunk));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${listenPort}`;
  const server: ApiProcess = {
    url,
    port: listenPort,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const escalate = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(escalate);
    },
  };
  const until = Date.now() + timeoutMs;
  while (!(await isHealthy(url))) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode} before answering: ${stderr.trim()}`);
    if (Date.now() > until) {
      await server.stop('SIGKILL');
      throw new Error(`the server did not answer on ${url} within ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  return server;
}

async function isHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** `plantstore <args>` on `databaseUrl`; resolves with stdout, rejects with stderr on a non-zero exit. */
export function runPlantstoreCli(databaseUrl: string, args: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [built(CLI_JS), ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 30_000, encoding: 'utf8' },
      (error, stdout, stderr) =>
        error ? fail(new Error(`plantstore ${args.join(' ')} failed: ${error.message}\n${stderr}`)) : done(stdout),
    );
  });
}

/** A new `plants:write` token, as `plantstore token create --json` prints it. */
export async function createToken(databaseUrl: string, name: string): Promise<string> {
  const stdout = await runPlantstoreCli(databaseUrl, ['token', 'create', '--name', name, '--json']);
  const { token } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { token?: unknown };
  if (typeof token !== 'string') throw new Error(`no token in: ${stdout}`);
  return token;
}

export interface StoredPlant {
  /** Every digit, as a decimal string. */
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
}

/** Every stored plant, read with `plantstore plants export` (NDJSON, ids exact). */
export async function storedPlants(databaseUrl: string): Promise<StoredPlant[]> {
  const ndjson = await runPlantstoreCli(databaseUrl, ['plants', 'export', '--format', 'ndjson']);
  return ndjson
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line.replace(/^\{"id":(-?[0-9]+)/, '{"id":"$1"')) as StoredPlant);
}
