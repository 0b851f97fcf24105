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
  /** Every plant's last entry, ascending by position. */
  private readonly ordered: PositionedFeedEntry[] = [];
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
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareFeedPositions(this.ordered[middle]!.position, after) > 0) high = middle;
      else low = middle + 1;
    }
    return this.ordered.slice(low, low + limit);
  }

  async newestPosition(): Promise<FeedPosition | undefined> {
    return this.ordered.at(-1)?.position;
  }

  private nextVersion(id: bigint): number {
    return (this.latest.get(id.toString())?.entry.version ?? 0) + 1;
  }

  private record(id: bigint, entry: PlantFeedEntry): PlantFeedEntry {
    this.commit++;
    const previous = this.latest.get(id.toString());
    if (previous !== undefined) this.ordered.splice(this.ordered.indexOf(previous), 1);
    const positioned = { position: { epoch: 0n, commit: this.commit, id }, entry };
    this.latest.set(id.toString(), positioned);
    this.ordered.push(positioned);
    return entry;
  }
}
