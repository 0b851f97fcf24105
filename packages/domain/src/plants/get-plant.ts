import type { PlantId } from './plant-id.js';
import type { PlantReader } from './plant-reader.js';
import type { Plant } from './plant.js';

/** `found` with the stored plant, or `not-found`: no plant has the id. */
export type GetPlantResult =
  { readonly outcome: 'found'; readonly plant: Plant } | { readonly outcome: 'not-found'; readonly id: PlantId };

/** Reads one plant by its id. */
export class GetPlant {
  constructor(private readonly plants: PlantReader) {}

  /**
   * A missing plant is an outcome, not an error.
   * @throws {StorageUnavailableError} the reader cannot reach its store (from the port, unchanged).
   */
  async execute(id: PlantId): Promise<GetPlantResult> {
    const plant = await this.plants.findById(id);
    return plant === undefined ? { outcome: 'not-found', id } : { outcome: 'found', plant };
  }
}
