import type { PlantId } from '../plants/plant-id.js';
import type {
  InsertOutcome,
  PlantBatchRepository,
  PlantProvenance,
  PlantRepository,
} from '../plants/plant-repository.js';
import type { PlantPageRequest, PlantReader } from '../plants/plant-reader.js';
import type { Plant } from '../plants/plant.js';
import { StorageUnavailableError } from '../common/errors.js';

export interface StoredPlant {
  readonly plant: Plant;
  readonly provenance: PlantProvenance;
}

/**
 * PlantRepository, PlantBatchRepository and PlantReader in a Map, keyed by the exact decimal id (the id's
 * value, not the PlantId object). Holds to the ports' contract (first writer wins, losers see
 * what is stored; checked by the contract suites) and records each call, so a test can see
 * what the use case asked the store to do.
 */
export class InMemoryPlantRepository implements PlantRepository, PlantBatchRepository, PlantReader {
  private readonly rows = new Map<string, StoredPlant>();
  readonly calls: StoredPlant[] = [];
  /** The size of each insertAllIfAbsent batch, in call order. */
  readonly batches: number[] = [];
  private unavailable = false;

  async insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    this.calls.push({ plant, provenance });
    if (this.unavailable) throw new StorageUnavailableError();
    const existing = this.rows.get(plant.id.toString());
    if (existing !== undefined) return { inserted: false, existing: existing.plant };
    this.rows.set(plant.id.toString(), { plant, provenance });
    return { inserted: true };
  }

  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    this.batches.push(plants.length);
    if (this.unavailable) throw new StorageUnavailableError();
    if (new Set(plants.map((p) => p.id.toString())).size !== plants.length)
      throw new Error('a batch must not repeat an id');
    return plants.map((plant) => {
      const existing = this.rows.get(plant.id.toString());
      if (existing !== undefined) return { inserted: false, existing: existing.plant };
      this.rows.set(plant.id.toString(), { plant, provenance });
      return { inserted: true };
    });
  }

  async listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    return this.listPage({ after, tags: [], limit });
  }

  async findById(id: PlantId): Promise<Plant | undefined> {
    if (this.unavailable) throw new StorageUnavailableError();
    return this.rows.get(id.toString())?.plant;
  }

  async listPage({ after, tags, limit }: PlantPageRequest): Promise<Plant[]> {
    if (this.unavailable) throw new StorageUnavailableError();
    const wanted = new Set(tags.map((tag) => tag.value));
    return [...this.rows.values()]
      .map((row) => row.plant)
      .filter((plant) => after === undefined || plant.id.value > after.value)
      .filter((plant) => wanted.size === 0 || (plant.tag !== undefined && wanted.has(plant.tag.value)))
      .sort((a, b) => (a.id.value < b.id.value ? -1 : 1))
      .slice(0, limit);
  }

  /** Makes every following call fail as an unreachable database would. */
  goOffline(): void {
    this.unavailable = true;
  }

  /** The plant stored under this id (decimal text) and its provenance. */
  stored(id: string): StoredPlant | undefined {
    return this.rows.get(id);
  }

  get size(): number {
    return this.rows.size;
  }
}
