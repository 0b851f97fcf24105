import {
  compareFeedPositions,
  Plant,
  PlantId,
  type FeedPosition,
  type PlantChangeFeed,
  type PlantFeedEntry,
  type PositionedFeedEntry,
} from '@plantstore/domain';

/**
 * A change feed in memory for the adapter's tests: each change moves its plant to the next
 * commit, as a store does, and every read is counted. (The domain's in-memory repository
 * implements the port for the use cases' tests; this one lets a test write changes directly.)
 */
export class InMemoryChangeFeed implements PlantChangeFeed {
  private readonly latest = new Map<string, PositionedFeedEntry>();
  private commit = 0n;
  /** Calls of readAfter, in order. */
  readonly reads: Array<{ readonly after: FeedPosition; readonly limit: number }> = [];
  failing = false;

  /** Commits a plant's new state (a version one above its last) and answers it. */
  put(id: bigint, name: string, tag?: string): PlantFeedEntry {
    const plant = Plant.fromStored(PlantId.fromBigInt(id) as PlantId, name, tag);
    return this.record(id, { deleted: false, plant, version: this.nextVersion(id) });
  }

  delete(id: bigint): PlantFeedEntry {
    return this.record(id, { deleted: true, id: PlantId.fromBigInt(id) as PlantId, version: this.nextVersion(id) });
  }

  /** The state a follower's copy must end equal to: each plant's last entry, by id. */
  state(): Map<string, PlantFeedEntry> {
    return new Map([...this.latest].map(([id, { entry }]) => [id, entry]));
  }

  async readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]> {
    this.reads.push({ after, limit });
    if (this.failing) throw new Error('store offline');
    return [...this.latest.values()]
      .filter(({ position }) => compareFeedPositions(position, after) > 0)
      .sort((a, b) => compareFeedPositions(a.position, b.position))
      .slice(0, limit);
  }

  async newestPosition(): Promise<FeedPosition | undefined> {
    let newest: FeedPosition | undefined;
    for (const { position } of this.latest.values())
      if (newest === undefined || compareFeedPositions(position, newest) > 0) newest = position;
    return newest;
  }

  private nextVersion(id: bigint): number {
    return (this.latest.get(id.toString())?.entry.version ?? 0) + 1;
  }

  private record(id: bigint, entry: PlantFeedEntry): PlantFeedEntry {
    this.commit++;
    this.latest.set(id.toString(), { position: { epoch: 0n, commit: this.commit, id }, entry });
    return entry;
  }
}
