/**
 * How far the change feed is behind the store's commits, as the store reports it: changes
 * committed that no follower can read yet (a transaction still open elsewhere holds them back).
 */
export interface FeedLagReading {
  /** Changes committed that the feed cannot serve yet (the store may cap the count). */
  readonly changes: number;
  /** When the first of them was made; undefined when there is none. */
  readonly oldestChangedAt: Date | undefined;
}
