import type { Clock } from '../common/clock.js';
import { StorageUnavailableError } from '../common/errors.js';
import { MAX_CHANGE_ATTEMPTS, preconditionHolds, type PlantPrecondition } from './change-plant.js';
import type { PlantChangeRepository } from './plant-change-repository.js';
import type { PlantId } from './plant-id.js';
import type { Plant } from './plant.js';

export interface RemovePlantCommand {
  readonly id: PlantId;
  /** Absent: whatever is stored is deleted. */
  readonly precondition?: PlantPrecondition | undefined;
  /** The token that deleted it, kept with the tombstone. */
  readonly removedByTokenId?: string | undefined;
}

/**
 * `removed`: the plant is deleted now and its id retired for ever. `already-removed`: it was
 * deleted before (a retried delete), whatever the precondition says. `precondition-failed`:
 * the plant is not at a version the caller expected, and stays; `plant` and `version` are what
 * it is now.
 * `not-found`: no plant ever had the id.
 */
export type RemovePlantResult =
  | { readonly outcome: 'removed'; readonly plant: undefined }
  | { readonly outcome: 'already-removed'; readonly plant: undefined }
  | { readonly outcome: 'not-found'; readonly plant: undefined }
  | { readonly outcome: 'precondition-failed'; readonly plant: Plant; readonly version: number };

/** Deletes a plant, as DELETE does: it leaves a tombstone, so its id is never used again. */
export class RemovePlant {
  constructor(
    private readonly plants: PlantChangeRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads the plant's state, decides, and retires it only if it is still at the version read;
   * when another writer got there first, it decides again on what is stored now.
   * @throws {StorageUnavailableError} the store cannot be reached, or the plant kept changing
   *   under it MAX_CHANGE_ATTEMPTS times (retry later).
   */
  async execute(command: RemovePlantCommand): Promise<RemovePlantResult> {
    const { id, precondition } = command;
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const state = await this.plants.stateOf(id);
      if (state === undefined) return { outcome: 'not-found', plant: undefined };
      if (!state.live) return { outcome: 'already-removed', plant: undefined };
      if (!preconditionHolds(precondition, state.version))
        return { outcome: 'precondition-failed', plant: state.plant, version: state.version };
      const retirement = { retiredAt: this.clock.now(), retiredByTokenId: command.removedByTokenId };
      if (await this.plants.retire(id, state.version, retirement)) return { outcome: 'removed', plant: undefined };
    }
    throw new StorageUnavailableError('the plant kept changing while its deletion was decided; retry');
  }
}
