import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { Agent } from 'node:http';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { tempDatabaseDir } from './support/temp-database.js';
import { expectErrorContract } from './support/contract.js';
import { postPlantVia, type PostResult } from '../support/http-post.js';

/**
 * The SQLite file becomes unwritable while the server runs → 503/50301 (never 500), nothing
 * half-written, and the service recovers when the fault clears. (A lock held by another
 * process is covered in errors.e2e-spec.ts.)
 *
 * How the fault is made: chmod does not do it. The server holds the database and its WAL
 * open, and permissions are checked only when a file is opened (and root ignores them
 * anyway), so a read-only file or directory changes nothing for a running server. What does
 * make every write fail, for any user, is a file-size limit of one byte on the server
 * process (RLIMIT_FSIZE, set with util-linux `prlimit`): each write then fails with EFBIG,
 * which SQLite reports as SQLITE_FULL / SQLITE_IOERR_WRITE — a real I/O-class failure of
 * the kind a full or failing disk gives. Node ignores SIGXFSZ, so the process lives on.
 */
function setFileSizeLimit(pid: number, soft: string): void {
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--fsize=${soft}:`], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`could not set RLIMIT_FSIZE with prlimit (util-linux) on pid ${pid}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

describe('database faults: the SQLite file becomes unwritable while the server runs', () => {
  const db = tempDatabaseDir('faults');
  let token: string;
  let server: BuiltServer;
  let agent: Agent;
  const post = (body: string): Promise<PostResult> => postPlantVia(agent, server.url, token, body);

  beforeAll(async () => {
    ({ token } = await createTokenWithCli(db.url, 'faults'));
    server = await startBuiltServer({
      DATABASE_URL: db.url,
      SQLITE_BUSY_TIMEOUT_MS: '500',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    });
    agent = new Agent({ keepAlive: true, maxSockets: 16 });
  });
  afterAll(async () => {
    agent?.destroy();
    await server?.stop('SIGKILL');
    db.remove();
  });

  it('503/50301 with Retry-After while writes fail, nothing half-written, and full recovery afterwards', async () => {
    expect((await post('{"id": 1, "name": "before the fault"}')).status).toBe(200);

    setFileSizeLimit(server.pid, '1');
    let during: PostResult[];
    try {
      // Several at once, so a whole group-commit batch meets the failing disk.
      during = await Promise.all([2, 3, 4, 5, 6].map((id) => post(`{"id": ${id}, "name": "during the fault"}`)));
      const unrelated = await Promise.all([
        post('{"id": 1, "name": "before the fault"}'), // a retry: may be served from what is stored
        post('{"id": 7, "name": ""}'), // invalid: refused before the store
      ]);
      for (const res of during) {
        expect({ status: res.status, retryAfter: res.headers['retry-after'], body: JSON.parse(res.text) }).toEqual({
          status: 503,
          retryAfter: '1',
          body: { error: 50301, message: 'The plant store is temporarily unavailable; retry shortly.' },
        });
      }
      expect([200, 503]).toContain(unrelated[0].status);
      expect(unrelated[1].status).toBe(400);
      // The operator's side: each 503's log line names the disk as its cause (the file size limit
      // makes SQLite report SQLITE_FULL or SQLITE_IOERR_WRITE), and quotes no SQL.
      const refused = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"status":503'));
      // (Log lines are written asynchronously: wait for them, boundedly.)
      for (let i = 0; i < 100 && refused().length < during.length; i++) await new Promise((r) => setTimeout(r, 20));
      const refusedLines = refused();
      expect(refusedLines.length).toBeGreaterThanOrEqual(during.length);
      for (const line of refusedLines)
        expect(['disk full', 'disk failing']).toContain((JSON.parse(line) as { cause?: string }).cause);
      expect(refusedLines.join('\n')).not.toMatch(/INSERT|SELECT|plant_outbox/i);
    } finally {
      setFileSizeLimit(server.pid, 'unlimited');
    }

    // Nothing of the refused creates was written: the same ids now take a *different* name.
    const after = await Promise.all([2, 3, 4, 5, 6].map((id) => post(`{"id": ${id}, "name": "after the fault"}`)));
    expect(after.map((r) => [r.status, r.text])).toEqual(Array(5).fill([200, '{"name":"after the fault"}']));
    expect((await post('{"id": 1, "name": "before the fault"}')).status).toBe(200);
    expect((await post('{"id": 8, "name": "new after the fault"}')).status).toBe(200);
  }, 60_000);

  it('a second fault on the same process: again 503 in the Error contract, again recovery', async () => {
    setFileSizeLimit(server.pid, '1');
    let res: PostResult;
    try {
      res = await post('{"id": 20, "name": "again"}');
    } finally {
      setFileSizeLimit(server.pid, 'unlimited');
    }
    expect(expectErrorContract({ status: res.status, headers: res.headers, text: res.text })).toBe(50301);
    expect((await post('{"id": 20, "name": "again"}')).status).toBe(200);
  });

  it('the file is intact and holds exactly the acknowledged plants', async () => {
    await server.stop('SIGTERM');
    const sqlite = new Database(db.path);
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = sqlite.prepare('SELECT CAST(id AS TEXT) AS id, name FROM plant ORDER BY rowid').all();
      expect(rows).toEqual([
        { id: '1', name: 'before the fault' },
        ...[2, 3, 4, 5, 6].map((id) => ({ id: String(id), name: 'after the fault' })),
        { id: '8', name: 'new after the fault' },
        { id: '20', name: 'again' },
      ]);
    } finally {
      sqlite.close();
    }
  });

  it('wrote only JSON lines through both faults and the shutdown', () => {
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
