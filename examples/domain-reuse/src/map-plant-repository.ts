import type { InsertOutcome, Plant, PlantProvenance, PlantRepository } from '@plantstore/domain';

/**
 * This team's own storage for plants: a Map. A plant's identity is its id's value, so the Map
 * is keyed by `plant.id.value` (a bigint), never by the PlantId object.
 */
export class MapPlantRepository implements PlantRepository {
  private readonly rows = new Map<bigint, { plant: Plant; provenance: PlantProvenance }>();

  async insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    const existing = this.rows.get(plant.id.value);
    if (existing !== undefined) return { inserted: false, existing: existing.plant };
    this.rows.set(plant.id.value, { plant, provenance });
    return { inserted: true };
  }
}
