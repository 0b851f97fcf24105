import type { DatabaseConfig } from '../config/database-config.js';
import { LOCK_RETRY_FIRST_PAUSE_MS, LOCK_RETRY_LONGEST_PAUSE_MS } from '../config/write-path-tuning.js';

// SQLite's answer when another connection (another process) holds the lock a statement needs.
const HELD_ELSEWHERE = /^SQLITE_(BUSY|LOCKED)/;

/**
 * How long a statement on this store may wait for a lock held by another process.
 *
 * better-sqlite3 is synchronous: with SQLite's busy timeout, a write that finds the lock held
 * by another process waits for it ON the event loop, and every client of the server waits
 * with it. The busy timeout is therefore 0 once the store is open (a locked statement fails
 * at once), and the store's statements wait for the lock instead between event-loop turns
 * (retryWhileLocked): health checks, reads and refusals keep their normal latency while a
 * create waits, and the create fails (StorageUnavailableError, a 503) once this has passed.
 * PostgreSQL waits for row locks on the server, within its statement timeout: 0 here.
 */
export function lockWaitOf(config: DatabaseConfig): number {
  return config.engine === 'sqlite' ? config.busyTimeoutMs : 0;
}

/** Runs `statement`; while it fails on a lock held elsewhere, runs it again with backoff, up to `waitMs` in all. */
export async function retryWhileLocked<T>(statement: () => Promise<T>, waitMs: number): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (let pause = LOCK_RETRY_FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LOCK_RETRY_LONGEST_PAUSE_MS)) {
    try {
      return await statement();
    } catch (error) {
      const remaining = giveUpAt - Date.now();
      if (remaining <= 0 || !isHeldElsewhere(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, remaining)));
    }
  }
}

function isHeldElsewhere(error: unknown): boolean {
  // TypeORM wraps the driver's error; look down the chain by shape (errors may come from another realm).
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && HELD_ELSEWHERE.test(code)) return true;
    e = (e as { driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
