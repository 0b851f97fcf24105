import type { Plant } from './plant.js';
import type { PlantBatchRepository } from './plant-repository.js';

export const DEFAULT_EXPORT_PAGE_SIZE = 1000;

/**
 * Every stored plant, ascending by id, read page by page (keyset, not offset): memory stays
 * flat and a plant created during the export either appears once or not at all.
 */
export class ExportPlants {
  constructor(
    private readonly plants: PlantBatchRepository,
    private readonly pageSize = DEFAULT_EXPORT_PAGE_SIZE,
  ) {}

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
