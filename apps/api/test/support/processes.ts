import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../../test-support/free-port.js';

export { freePort };

// The built binaries, as an operator runs them (`pnpm test` builds first).
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SERVER_JS = resolve(repositoryRoot, 'apps/api/dist/main.js');
export const CLI_JS = resolve(repositoryRoot, 'apps/cli/dist/main.js');

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Everything it wrote to stdout so far (its log lines). */
  stdout(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `node apps/api/dist/main.js` on 127.0.0.1:<free port> with `env` added, resolved once it
 * answers HTTP; rejected with its stderr if it exits first or is not up within `timeoutMs`.
 * With `TLS_CERT_FILE` in `env` it serves HTTPS, and `url` says so.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_JS], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const server: ServerProcess = {
    url: `${env['TLS_CERT_FILE'] === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with code ${child.exitCode} before answering: ${stderr.trim()}`);
    if (await answersHttp(server.url)) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the server did not answer on ${server.url} within ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** Any HTTP answer (a 404 will do) means the server is listening; /healthz may not exist yet. */
function answersHttp(url: string): Promise<boolean> {
  return new Promise((done) => {
    // Whether it listens is the question, not whose certificate it shows.
    const send = url.startsWith('https:') ? httpsRequest : request;
    const req = send(`${url}/`, { method: 'GET', timeout: 1_000, rejectUnauthorized: false }, (res) => {
      res.resume();
      done(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false));
    req.end();
  });
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node apps/cli/dist/main.js <args>` with `env` added: the `pnpm plantstore` binary. */
export function runCli(args: readonly string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI_JS, ...args],
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
