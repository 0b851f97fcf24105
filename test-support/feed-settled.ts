import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a test waits for a change to reach the feed. PostgreSQL serves a change once no
 * transaction older than it is open anywhere in the cluster (docs/changes.md), and other suites
 * may hold one open for a while on a shared server.
 */
export const FEED_WAIT_MS = 30_000;

/** What the wait reads: the feed's count of committed changes it cannot serve yet (SqlPlantFeed's lag). */
export interface FeedLagCount {
  lag(): Promise<{ readonly changes: number }>;
}

/**
 * Resolves once the feed serves every change committed so far: at once on SQLite, whose writers
 * take turns. A test that reads the feed right after a write waits here, instead of reading a
 * page that the cluster's older transactions still hold back.
 */
export async function feedSettled(feed: FeedLagCount, timeoutMs = FEED_WAIT_MS): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const { changes } = await feed.lag();
    if (changes === 0) return;
    if (Date.now() > giveUpAt) throw new Error(`the feed still holds back ${changes} changes after ${timeoutMs} ms`);
    await sleep(50);
  }
}
