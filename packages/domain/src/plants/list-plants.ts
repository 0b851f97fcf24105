import type { PlantPageQuery } from './plant-page-query.js';
import type { PlantReader } from './plant-reader.js';
import type { Plant } from './plant.js';

export interface PlantPage {
  readonly plants: readonly Plant[];
  /**
   * The query of the following page, present exactly when this page is full (`limit` plants),
   * even if that page turns out empty: a shorter page is the last.
   */
  readonly next: PlantPageQuery | undefined;
}

/**
 * Lists plants a page at a time, ascending by id, paged by key (`after` the last id), so that a
 * walk from the first page to the last returns every plant that existed when it began exactly
 * once, whatever is created meanwhile.
 */
export class ListPlants {
  constructor(private readonly plants: PlantReader) {}

  /** @throws {StorageUnavailableError} the reader cannot reach its store (from the port, unchanged). */
  async execute(query: PlantPageQuery): Promise<PlantPage> {
    const plants = await this.plants.listPage(query);
    const last = plants.length === query.limit ? plants[plants.length - 1] : undefined;
    return { plants, next: last === undefined ? undefined : query.continuingAfter(last.id) };
  }
}
