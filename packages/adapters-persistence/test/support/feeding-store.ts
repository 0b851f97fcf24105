import { SqlPlantFeed, SqlPlantRepository } from '@plantstore/adapters-persistence';
import type { FeedingPlantStore } from '@plantstore/domain/testing';
import type { DataSource } from 'typeorm';

/** The plant ports and the feed of one data source, as one store (what SqlStore gives as `plants` and `feed`). */
export function feedingStore(dataSource: DataSource): FeedingPlantStore & { readonly feed: SqlPlantFeed } {
  const plants = new SqlPlantRepository(dataSource);
  const feed = new SqlPlantFeed(dataSource);
  return Object.assign(plants, {
    feed,
    readAfter: feed.readAfter.bind(feed),
    newestPosition: feed.newestPosition.bind(feed),
  });
}

/**
 * Resolves once the feed of this data source serves every change committed so far. On
 * PostgreSQL that waits for every transaction of the cluster that began before them to end
 * (other suites run beside this one); SQLite's feed never lags.
 */
export async function feedSettled(feed: SqlPlantFeed, timeoutMs = 60_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const lag = await feed.lag();
    if (lag.changes === 0) return;
    if (Date.now() > giveUpAt) throw new Error(`the feed still lags ${lag.changes} changes after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
