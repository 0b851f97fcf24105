import { PlantNotFoundError } from './plant-errors.js';
import type { PlantId } from './plant-id.js';
import type { PlantReader } from './plant-reader.js';
import type { Plant } from './plant.js';

/** Reads one plant by its id. */
export class GetPlant {
  constructor(private readonly plants: PlantReader) {}

  /**
   * @throws {PlantNotFoundError} no plant has this id.
   * @throws {StorageUnavailableError} the reader cannot reach its store (from the port, unchanged).
   */
  async execute(id: PlantId): Promise<Plant> {
    const plant = await this.plants.findById(id);
    if (plant === undefined) throw new PlantNotFoundError(id);
    return plant;
  }
}
