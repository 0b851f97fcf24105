import type { PlantChangeRepository } from './plant-change-repository.js';
import type { PlantId } from './plant-id.js';
import type { PlantReader } from './plant-reader.js';
import type { Plant } from './plant.js';

/** `found` with the stored plant; `not-found`: no plant has the id; `deleted`: the plant that had it was deleted. */
export type GetPlantResult =
  | { readonly outcome: 'found'; readonly plant: Plant }
  | { readonly outcome: 'not-found'; readonly id: PlantId }
  | { readonly outcome: 'deleted'; readonly id: PlantId };

/** Reads one plant by its id. */
export class GetPlant {
  /**
   * `states`: a store that deletes plants (PlantChangeRepository), so that a deleted plant is
   * told from one never created; without it, both are `not-found`.
   */
  constructor(
    private readonly plants: PlantReader,
    private readonly states?: Pick<PlantChangeRepository, 'stateOf'>,
  ) {}

  /**
   * A missing plant is an outcome, not an error.
   * @throws {StorageUnavailableError} the reader cannot reach its store (from the port, unchanged).
   */
  async execute(id: PlantId): Promise<GetPlantResult> {
    if (this.states !== undefined) {
      const state = await this.states.stateOf(id);
      if (state === undefined) return { outcome: 'not-found', id };
      return state.live ? { outcome: 'found', plant: state.plant } : { outcome: 'deleted', id };
    }
    const plant = await this.plants.findById(id);
    return plant === undefined ? { outcome: 'not-found', id } : { outcome: 'found', plant };
  }
}
