import { ChangeCursor } from './change-cursor.js';
import type { ChangesQuery } from './changes-query.js';
import { compareFeedPositions, FEED_ORIGIN } from './feed-position.js';
import type { PlantChangeFeed, PositionedFeedEntry } from './plant-change-feed.js';

/**
 * `page`: the entries after the cursor, each at its position (`ChangeCursor.encode(position)`
 * is the cursor right after it, a stream's event id), and `next`, the cursor to ask with next
 * time (at the same place when the page is empty). `unknown-cursor`: the cursor is well formed but beyond
 * the newest position of this store, so it cannot have come from it.
 */
export type FollowChangesResult =
  | { readonly outcome: 'page'; readonly changes: readonly PositionedFeedEntry[]; readonly next: string }
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
    const changes = await this.feed.readAfter(after, query.limit);
    // One cursor per page: a JSON page sends only `next`, a stream encodes its events' own.
    const next = ChangeCursor.encode(changes.length === 0 ? after : changes[changes.length - 1]!.position);
    return { outcome: 'page', changes, next };
  }

  /**
   * The cursor of now: every change that commits after this call comes after it. A reader that
   * takes it before reading the store (a list) and then follows the feed from it keeps an exact
   * copy; a change it sees twice is harmless, versions only go up. The origin's cursor while no
   * plant was ever stored.
   * @throws {StorageUnavailableError} the feed cannot reach its store (from the port, unchanged).
   */
  async cursorOfNow(): Promise<string> {
    return ChangeCursor.encode((await this.feed.newestPosition()) ?? FEED_ORIGIN);
  }
}
