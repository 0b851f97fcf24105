import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';

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

/** Starts the server, waits for its listening line, and returns every line it wrote before the first request. */
async function linesBeforeServing(env: Record<string, string>): Promise<LogLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-start-'));
  // The default level unless `env` sets one: none inherited from the test run. Ready on its
  // own word, not on a probe, which would be the first request. Lines are written
  // asynchronously: the listening line can follow the socket by a moment.
  let server: BuiltServer | undefined;
  try {
    server = await startBuiltServer(
      { DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`, LOG_LEVEL: undefined, ...env },
      { ready: (started) => started.output().includes('listening on') },
    );
    const before = server.output();
    expect(await status(`${server.url}/healthz`)).toBe(200);
    return before
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  } finally {
    await server?.stop();
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
