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
