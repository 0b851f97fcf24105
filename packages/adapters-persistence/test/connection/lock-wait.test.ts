import { lockWaitOf, retryWhileLocked } from '../../src/connection/lock-wait.js';
import { parseDatabaseUrl } from '../../src/config/database-config.js';

const locked = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
/** TypeORM's wrapping of a driver error. */
const wrapped = (driverError: Error) => Object.assign(new Error('QueryFailedError'), { driverError });

describe('retryWhileLocked', () => {
  it('runs the statement again while another connection holds the lock, and answers once it gets it', async () => {
    let calls = 0;
    const result = await retryWhileLocked(async () => {
      calls++;
      if (calls < 4) throw calls % 2 === 0 ? wrapped(locked()) : locked();
      return 'written';
    }, 5_000);
    expect({ result, calls }).toEqual({ result: 'written', calls: 4 });
  });

  it('gives up with the lock error once the wait is over', async () => {
    let calls = 0;
    const attempt = retryWhileLocked(async () => {
      calls++;
      throw locked();
    }, 60);
    await expect(attempt).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    // Backoff from 2 ms: a handful of tries in 60 ms, not a busy loop.
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(20);
  });

  it('does not retry other failures, nor anything when the store does not wait (PostgreSQL)', async () => {
    let calls = 0;
    await expect(
      retryWhileLocked(async () => {
        calls++;
        throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
      }, 5_000),
    ).rejects.toThrow('constraint');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryWhileLocked(async () => {
        calls++;
        throw locked();
      }, 0),
    ).rejects.toThrow('locked');
    expect(calls).toBe(1);
  });
});

describe('lockWaitOf', () => {
  it("is SQLite's busy timeout, waited off the event loop, and nothing on PostgreSQL, which waits on the server", () => {
    expect(lockWaitOf(parseDatabaseUrl('sqlite:x.sqlite', 'unused', { sqliteBusyTimeoutMs: 1_234 }))).toBe(1_234);
    expect(lockWaitOf(parseDatabaseUrl('postgres://db/plants', 'unused'))).toBe(0);
  });
});
