import type {
  PlantChangeRepository,
  PlantRetirement,
  PlantRevision,
  PlantState,
} from '../plants/plant-change-repository.js';
import { PlantId } from '../plants/plant-id.js';
import type {
  InsertOutcome,
  PlantBatchRepository,
  PlantProvenance,
  PlantRepository,
} from '../plants/plant-repository.js';
import type { PlantPageRequest, PlantReader } from '../plants/plant-reader.js';
import type { Plant } from '../plants/plant.js';
import { StorageUnavailableError } from '../common/errors.js';
import { compareFeedPositions, type FeedPosition } from '../changes/feed-position.js';
import type { PlantChangeFeed, PositionedFeedEntry } from '../changes/plant-change-feed.js';

export interface StoredPlant {
  /** Undefined once the plant is deleted: its tombstone keeps the id, not the content. */
  readonly plant: Plant | undefined;
  readonly provenance: PlantProvenance;
  readonly version: number;
  readonly retirement?: PlantRetirement | undefined;
}

/**
 * Every plant port (PlantRepository, PlantBatchRepository, PlantReader, PlantChangeRepository,
 * PlantChangeFeed) in a Map, keyed by the exact decimal id (the id's value, not the PlantId
 * object). Holds to the ports' contract (first writer wins, losers see what is stored,
 * tombstones for ever; checked by the contract suites) and records each create, so a test can
 * see what the use case asked the store to do. Each write (a batch is one) takes the next
 * value of a counter as its commit: the feed's positions are (0, commit, id).
 */
export class InMemoryPlantRepository
  implements PlantRepository, PlantBatchRepository, PlantReader, PlantChangeRepository, PlantChangeFeed
{
  private readonly rows = new Map<string, StoredPlant>();
  private readonly positions = new Map<string, FeedPosition>();
  private commits = 0n;
  readonly calls: Array<{ readonly plant: Plant; readonly provenance: PlantProvenance }> = [];
  /** The size of each insertAllIfAbsent batch, in call order. */
  readonly batches: number[] = [];
  private unavailable = false;

  async insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    this.calls.push({ plant, provenance });
    this.failIfOffline();
    return this.insert(plant, provenance, ++this.commits);
  }

  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    this.batches.push(plants.length);
    this.failIfOffline();
    if (new Set(plants.map((p) => p.id.toString())).size !== plants.length)
      throw new Error('a batch must not repeat an id');
    const commit = ++this.commits;
    return plants.map((plant) => this.insert(plant, provenance, commit));
  }

  async listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    return this.listPage({ after, tags: [], limit });
  }

  async findById(id: PlantId): Promise<Plant | undefined> {
    this.failIfOffline();
    return this.rows.get(id.toString())?.plant;
  }

  async listPage({ after, tags, name, limit }: PlantPageRequest): Promise<Plant[]> {
    this.failIfOffline();
    const wanted = new Set(tags.map((tag) => tag.value));
    return [...this.rows.values()]
      .flatMap((row) => (row.plant === undefined ? [] : [row.plant]))
      .filter((plant) => after === undefined || plant.id.value > after.value)
      .filter((plant) => wanted.size === 0 || (plant.tag !== undefined && wanted.has(plant.tag.value)))
      .filter((plant) => name === undefined || name.matches(plant.name))
      .sort((a, b) => (a.id.value < b.id.value ? -1 : 1))
      .slice(0, limit);
  }

  async stateOf(id: PlantId): Promise<PlantState | undefined> {
    this.failIfOffline();
    const row = this.rows.get(id.toString());
    if (row === undefined) return undefined;
    if (row.plant !== undefined) return { live: true, plant: row.plant, version: row.version };
    return { live: false, id, version: row.version, retiredAt: row.retirement!.retiredAt };
  }

  async replace(plant: Plant, expectedVersion: number, _revision?: PlantRevision): Promise<boolean> {
    this.failIfOffline();
    const key = plant.id.toString();
    const row = this.rows.get(key);
    if (row?.plant === undefined || row.version !== expectedVersion) return false;
    this.rows.set(key, { ...row, plant, version: row.version + 1 });
    this.positions.set(key, { epoch: 0n, commit: ++this.commits, id: plant.id.value });
    return true;
  }

  async retire(id: PlantId, expectedVersion: number, retirement: PlantRetirement): Promise<boolean> {
    this.failIfOffline();
    const key = id.toString();
    const row = this.rows.get(key);
    if (row?.plant === undefined || row.version !== expectedVersion) return false;
    this.rows.set(key, { ...row, plant: undefined, version: row.version + 1, retirement });
    this.positions.set(key, { epoch: 0n, commit: ++this.commits, id: id.value });
    return true;
  }

  async readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]> {
    this.failIfOffline();
    return [...this.positions]
      .filter(([, position]) => compareFeedPositions(position, after) > 0)
      .sort(([, a], [, b]) => compareFeedPositions(a, b))
      .slice(0, limit)
      .map(([key, position]) => {
        const { plant, version } = this.rows.get(key)!;
        return {
          position,
          entry:
            plant === undefined
              ? { deleted: true, id: PlantId.fromStored(key), version }
              : { deleted: false, plant, version },
        };
      });
  }

  async newestPosition(): Promise<FeedPosition | undefined> {
    this.failIfOffline();
    let newest: FeedPosition | undefined;
    for (const position of this.positions.values())
      if (newest === undefined || compareFeedPositions(position, newest) > 0) newest = position;
    return newest;
  }

  /** Makes every following call fail as an unreachable database would. */
  goOffline(): void {
    this.unavailable = true;
  }

  /** What is stored under this id (decimal text): the plant or its tombstone, its provenance and version. */
  stored(id: string): StoredPlant | undefined {
    return this.rows.get(id);
  }

  /** Ids stored, tombstones included. */
  get size(): number {
    return this.rows.size;
  }

  private insert(plant: Plant, provenance: PlantProvenance, commit: bigint): InsertOutcome {
    const existing = this.rows.get(plant.id.toString());
    if (existing?.plant !== undefined) return { inserted: false, existing: existing.plant };
    if (existing !== undefined) return { inserted: false, retired: true };
    this.rows.set(plant.id.toString(), { plant, provenance, version: 1 });
    this.positions.set(plant.id.toString(), { epoch: 0n, commit, id: plant.id.value });
    return { inserted: true };
  }

  private failIfOffline(): void {
    if (this.unavailable) throw new StorageUnavailableError();
  }
}
