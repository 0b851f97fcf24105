import type { Clock } from '../common/clock.js';
import { StorageUnavailableError } from '../common/errors.js';
import type { PlantChangeRepository, PlantState } from './plant-change-repository.js';
import { Plant } from './plant.js';

/**
 * The versions of the plant the caller expects (what an HTTP `If-Match` names, say): the change
 * applies only while the plant is at one of them. None: it applies nowhere.
 */
export interface PlantPrecondition {
  readonly versions: readonly number[];
}

/** Whether the plant at `version` is one the precondition expects; no precondition expects any. */
export function preconditionHolds(precondition: PlantPrecondition | undefined, version: number): boolean {
  return precondition === undefined || precondition.versions.includes(version);
}

export interface ChangePlantCommand {
  /** The plant as it should be: its id names the plant, its name and tag replace the stored ones. */
  readonly plant: Plant;
  /** Absent: the change applies to whatever is stored. */
  readonly precondition?: PlantPrecondition | undefined;
}

/**
 * `changed`: the new name and tag are stored, at the next version. `unchanged`: they were
 * stored already, so nothing was written, whatever the precondition says (the change already
 * holds). `precondition-failed`: the plant is not at a version the caller expected; `plant`
 * and `version` are what it is now. `not-found`: no plant ever had the id (a change never
 * creates). `deleted`: it was deleted. `version` is the plant's version as stored after the
 * call (PlantState).
 */
export type ChangePlantResult =
  | { readonly outcome: 'changed'; readonly plant: Plant; readonly version: number }
  | { readonly outcome: 'unchanged'; readonly plant: Plant; readonly version: number }
  | { readonly outcome: 'precondition-failed'; readonly plant: Plant; readonly version: number }
  | { readonly outcome: 'not-found'; readonly plant: undefined }
  | { readonly outcome: 'deleted'; readonly plant: undefined };

/**
 * How many times a change is decided again after losing a race to another writer of the same
 * plant before the caller is told to retry: each lost race means another change committed.
 */
export const MAX_CHANGE_ATTEMPTS = 16;

/** Replaces the name and tag of a live plant, as PUT does. */
export class ChangePlant {
  constructor(
    private readonly plants: PlantChangeRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads the plant's state, decides, and writes only if the plant is still at the version it
   * read; when another writer got there first, it decides again on what is stored now.
   * @throws {StorageUnavailableError} the store cannot be reached, or the plant kept changing
   *   under it MAX_CHANGE_ATTEMPTS times (retry later).
   * @throws {TypeError} `command.plant` is not a Plant.
   */
  async execute(command: ChangePlantCommand): Promise<ChangePlantResult> {
    const { plant, precondition } = command;
    if (!(plant instanceof Plant))
      throw new TypeError('ChangePlant takes a Plant: parse the input with Plant.parse first');
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const state = await this.plants.stateOf(plant.id);
      const settled = settleChange(plant, state, precondition);
      if (settled !== undefined) return settled;
      const live = state as Extract<PlantState, { live: true }>;
      if (await this.plants.replace(plant, live.version, { changedAt: this.clock.now() }))
        return { outcome: 'changed', plant, version: live.version + 1 };
    }
    throw new StorageUnavailableError('the plant kept changing while this change was decided; retry');
  }
}

/** The answer when the state alone decides it; undefined when the change is to be written. */
function settleChange(
  plant: Plant,
  state: PlantState | undefined,
  precondition: PlantPrecondition | undefined,
): ChangePlantResult | undefined {
  if (state === undefined) return { outcome: 'not-found', plant: undefined };
  if (!state.live) return { outcome: 'deleted', plant: undefined };
  const { version } = state;
  if (state.plant.hasSameContentAs(plant)) return { outcome: 'unchanged', plant: state.plant, version };
  if (!preconditionHolds(precondition, version)) return { outcome: 'precondition-failed', plant: state.plant, version };
  return undefined;
}
