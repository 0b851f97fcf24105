import type { PlantBatchRepository } from './plant-repository.js';
import type { Plant } from './plant.js';

const DEFAULT_PAGE_SIZE = 1000;

/**
 * Every stored plant, ascending by id, read page by page (keyset, not offset): memory stays
 * flat and a plant created during the export either appears once or not at all.
 */
export class ExportPlants {
  constructor(
    private readonly plants: PlantBatchRepository,
    private readonly pageSize = DEFAULT_PAGE_SIZE,
  ) {}

  /** @throws {StorageUnavailableError} while iterating, when the store fails; the plants yielded so far stand. */
  async *execute(): AsyncGenerator<Plant> {
    let last: Plant | undefined;
    for (;;) {
      const page = await this.plants.listAfter(last?.id, this.pageSize);
      yield* page;
      if (page.length < this.pageSize) return;
      last = page[page.length - 1];
    }
  }
}
