import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/processes.js';
import { exchange } from '../../support/raw-exchange.js';

/** The checkout this test file belongs to (apps/api/test/adversarial/support → repository root). */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const serverMain = join(repositoryRoot, 'apps/api/dist/main.js');

function requireBuild(file: string): string {
  if (!existsSync(file))
    throw new Error(`${file} is missing: build first (\`npx tsc -b\` or \`pnpm test\`, which builds)`);
  return file;
}

/** A temp directory for one suite's SQLite file; `remove` deletes it and everything in it. */
export function tempDatabaseDir(label: string): { dir: string; path: string; url: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `plantstore-adv-${label}-`));
  const path = join(dir, 'plantstore.sqlite');
  return { dir, path, url: `sqlite:${path}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface BuiltServer {
  readonly url: string;
  readonly pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends the signal and waits (bounded) for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs the production build (`node apps/api/dist/main.js`) as a child process on 127.0.0.1
 * and a free port, and waits until it answers HTTP. Stdout and stderr are captured.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number } = {},
): Promise<BuiltServer> {
  requireBuild(serverMain);
  let lastFailure = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [serverMain], {
      cwd: repositoryRoot,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const url = `http://127.0.0.1:${port}`;
    const ready = await waitUntilAnswering(url, child, options.readyTimeoutMs ?? 30_000);
    const output = () => Buffer.concat(chunks).toString('utf8');
    if (ready) {
      return { url, pid: child.pid!, output, stop: (signal = 'SIGKILL') => stopChild(child, exited, signal) };
    }
    await stopChild(child, exited, 'SIGKILL');
    lastFailure = output();
    if (!/EADDRINUSE/.test(lastFailure)) break;
  }
  throw new Error(`the built server did not start:\n${lastFailure}`);
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const probe = await exchange(
      url,
      'GET /adversarial-readiness-probe HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      {
        deadlineMs: 2_000,
      },
    );
    if (probe.responses.length > 0) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}
