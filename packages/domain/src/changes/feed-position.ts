/**
 * Where a change stands in a store's feed, in the order the store serves its changes: by
 * `epoch`, then `commit`, then `id` (the plant's id), each compared by value. What the numbers
 * mean is the store's own (a commit counter, a transaction id, an epoch bumped when a database
 * is restored elsewhere); the domain only orders, encodes and compares them.
 *
 * A store hands out positions greater than FEED_ORIGIN, and never hands out a position lower
 * than one it has already served to a change committed after it: that is what "no skip" means.
 */
export interface FeedPosition {
  /** A whole number ≥ 0: bumped when positions start again (a restore into another cluster). */
  readonly epoch: bigint;
  /** A whole number ≥ 0: the store's commit order (or an order no later commit can undercut). */
  readonly commit: bigint;
  /** The plant's id: orders the changes of one commit. */
  readonly id: bigint;
}

/** Before every change: where a follower without a cursor starts. */
export const FEED_ORIGIN: FeedPosition = Object.freeze({ epoch: 0n, commit: 0n, id: 0n });

/** Negative when `a` comes before `b`, 0 when they are the same position, positive after. */
export function compareFeedPositions(a: FeedPosition, b: FeedPosition): number {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}
