import type { PlantId } from '../plants/plant-id.js';
import type { Plant } from '../plants/plant.js';
import type { FeedPosition } from './feed-position.js';

/**
 * A plant's state as the feed tells it: live with its content, or deleted. `version` is the
 * plant's version as its events carry it (1 at create, +1 per committed change, the deletion
 * included), so a follower keeps the highest it has seen.
 */
export type PlantFeedEntry =
  | { readonly deleted: false; readonly plant: Plant; readonly version: number }
  | { readonly deleted: true; readonly id: PlantId; readonly version: number };

/** One entry of the feed and the position of the plant's last change. */
export interface PositionedFeedEntry {
  readonly position: FeedPosition;
  readonly entry: PlantFeedEntry;
}

/*
 * The change feed of a plant store: every plant (live or deleted) at the position of its last
 * committed change. A store that implements it holds to these:
 * - Each create, change and deletion moves the plant to a position greater than every position
 *   `readAfter` has answered before it committed, on any number of processes sharing the store:
 *   a change committed late is never behind a position a follower already passed. A store whose
 *   own order is not commit order (PostgreSQL's transaction ids) answers only positions no
 *   transaction still open can undercut, and so may lag behind one; it never skips it.
 * - A plant appears once, at its last change, with the state that change left (a deleted
 *   plant as a tombstone, for ever). Positions survive restarts and upgrades.
 * - Reading does not block writes. An unreachable store throws StorageUnavailableError.
 * `@plantstore/domain/testing` holds a contract suite (plantChangeFeedContract) that checks it.
 */
export interface PlantChangeFeed {
  /** Up to `limit` (≥ 1) plants whose last change is after `after`, ascending by position. */
  readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]>;
  /**
   * The feed's present: a position at or after every position `readAfter` has answered or can
   * answer now, never lower than one it gave before (a cursor once handed out stays below it,
   * even after its plant changed again), and below every change that commits after it was
   * answered, so that following from it misses nothing committed later (a list read after it,
   * plus the feed from it, is an exact copy). Undefined while no plant was ever stored. A store
   * may answer a point between its last change and the next one rather than the change itself,
   * never a bound a later commit could land below.
   */
  newestPosition(): Promise<FeedPosition | undefined>;
}
