import type { PlantChangeRepository } from './plant-change-repository.js';
import type { PlantId } from './plant-id.js';
import type { Plant } from './plant.js';

/**
 * `found` with the stored plant and its version (PlantState: 1 at create, one more with each
 * committed change); `not-found`: no plant has the id; `deleted`: the plant that had it was
 * deleted.
 */
export type GetPlantResult =
  | { readonly outcome: 'found'; readonly plant: Plant; readonly version: number }
  | { readonly outcome: 'not-found'; readonly id: PlantId }
  | { readonly outcome: 'deleted'; readonly id: PlantId };

/** Reads one plant by its id, from the store's states, so that a deleted plant is told from one never created. */
export class GetPlant {
  constructor(private readonly states: Pick<PlantChangeRepository, 'stateOf'>) {}

  /**
   * A missing plant is an outcome, not an error.
   * @throws {StorageUnavailableError} the store cannot be reached (from the port, unchanged).
   */
  async execute(id: PlantId): Promise<GetPlantResult> {
    const state = await this.states.stateOf(id);
    if (state === undefined) return { outcome: 'not-found', id };
    return state.live ? { outcome: 'found', plant: state.plant, version: state.version } : { outcome: 'deleted', id };
  }
}
