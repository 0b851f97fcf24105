import { ChangeCursor } from './change-cursor.js';
import type { ChangesQuery } from './changes-query.js';
import { compareFeedPositions, FEED_ORIGIN } from './feed-position.js';
import type { PlantChangeFeed, PlantFeedEntry } from './plant-change-feed.js';

/** One entry of a page and the cursor that continues right after it (a stream's event id). */
export interface CursoredFeedEntry {
  readonly entry: PlantFeedEntry;
  readonly cursor: string;
}

/**
 * `page`: the entries after the cursor and `next`, the cursor to ask with next time (at the
 * same place when the page is empty). `unknown-cursor`: the cursor is well formed but beyond
 * the newest position of this store, so it cannot have come from it.
 */
export type FollowChangesResult =
  | { readonly outcome: 'page'; readonly changes: readonly CursoredFeedEntry[]; readonly next: string }
  | { readonly outcome: 'unknown-cursor'; readonly parameter: string };

/** Reads the change feed a page at a time: every plant changed after a cursor, at its latest state. */
export class FollowChanges {
  constructor(private readonly feed: PlantChangeFeed) {}

  /** @throws {StorageUnavailableError} the feed cannot reach its store (from the port, unchanged). */
  async execute(query: ChangesQuery): Promise<FollowChangesResult> {
    const after = query.after ?? FEED_ORIGIN;
    if (query.after !== undefined && compareFeedPositions(after, FEED_ORIGIN) !== 0) {
      const newest = await this.feed.newestPosition();
      if (newest === undefined || compareFeedPositions(after, newest) > 0)
        return { outcome: 'unknown-cursor', parameter: query.afterName };
    }
    const read = await this.feed.readAfter(after, query.limit);
    const changes = read.map(({ position, entry }) => ({ entry, cursor: ChangeCursor.encode(position) }));
    const next = changes.length === 0 ? ChangeCursor.encode(after) : changes[changes.length - 1]!.cursor;
    return { outcome: 'page', changes, next };
  }
}
