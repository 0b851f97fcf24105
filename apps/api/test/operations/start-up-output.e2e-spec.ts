import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, SERVER_JS } from '../support/processes.js';

/**
 * What an operator reads when the built server starts at the default level: a few lines at
 * most, one of them saying where it listens, on which engine, which version. Nest's
 * module-by-module start-up report is there at LOG_LEVEL=debug.
 */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

interface LogLine {
  level: string;
  msg: string;
  context?: string;
}

/** Starts the server, waits until it answers, and returns every line it wrote before the first request. */
async function linesBeforeServing(env: Record<string, string>): Promise<LogLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-start-'));
  const port = await freePort();
  // The default level unless `env` sets one: none inherited from the test run.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'LOG_LEVEL'));
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      ...inherited,
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    const deadline = Date.now() + 30_000;
    // Lines are written asynchronously: the listening line can follow the socket by a moment.
    while (!output.includes('listening on')) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`no listening line within 30 s: ${output}`);
      await new Promise((wait) => setTimeout(wait, 50));
    }
    const before = output;
    expect(await status(`http://127.0.0.1:${port}/healthz`)).toBe(200);
    return before
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

function status(url: string): Promise<number | undefined> {
  return new Promise((done) => {
    const req = request(url, { timeout: 5_000 }, (res) => {
      res.resume();
      done(res.statusCode);
    });
    req.on('error', () => done(undefined));
    req.end();
  });
}

describe('the built server starting at the default log level', () => {
  it('writes at most 4 lines before it serves, and says once where it listens, on which engine, which version', async () => {
    const lines = await linesBeforeServing({});
    expect(lines.length).toBeLessThanOrEqual(4);
    const listening = lines.filter((line) => line.msg.includes('listening'));
    expect(listening).toHaveLength(1);
    expect(listening[0]).toMatchObject({ level: 'info' });
    expect(listening[0]!.msg).toMatch(
      new RegExp(
        `^Plant Store ${VERSION.replaceAll('.', '\\.')} listening on http://127\\.0\\.0\\.1:\\d+: SQLite sqlite:/.+plantstore\\.sqlite, Node v\\d+\\.\\d+\\.\\d+$`,
      ),
    );
    expect(
      lines.filter((line) => ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(line.context ?? '')),
    ).toEqual([]);
  });

  it("keeps Nest's module-by-module start-up report, at debug", async () => {
    const lines = await linesBeforeServing({ LOG_LEVEL: 'debug' });
    const bootstrap = lines.filter((line) =>
      ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(line.context ?? ''),
    );
    expect(bootstrap.length).toBeGreaterThan(5);
    expect(new Set(bootstrap.map((line) => line.level))).toEqual(new Set(['debug']));
  });
});
