import {
  StorageUnavailableError,
  type InsertOutcome,
  type Plant,
  type PlantProvenance,
  type PlantRepository,
} from '@plantstore/domain';

export interface StoredPlant {
  readonly plant: Plant;
  readonly provenance: PlantProvenance;
}

/**
 * PlantRepository in a Map, keyed by the exact decimal id. Holds to the port's contract
 * (first writer wins, losers see what is stored) and records each call, so a test can see
 * what the use case asked the store to do.
 */
export class InMemoryPlantRepository implements PlantRepository {
  private readonly rows = new Map<string, StoredPlant>();
  readonly calls: StoredPlant[] = [];
  private unavailable = false;

  async insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    this.calls.push({ plant, provenance });
    if (this.unavailable) throw new StorageUnavailableError();
    const existing = this.rows.get(plant.id.toString());
    if (existing !== undefined) return { inserted: false, existing: existing.plant };
    this.rows.set(plant.id.toString(), { plant, provenance });
    return { inserted: true };
  }

  /** Makes every following call fail as an unreachable database would. */
  goOffline(): void {
    this.unavailable = true;
  }

  stored(id: string): StoredPlant | undefined {
    return this.rows.get(id);
  }

  get size(): number {
    return this.rows.size;
  }
}
