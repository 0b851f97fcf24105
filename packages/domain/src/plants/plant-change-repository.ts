import type { PlantId } from './plant-id.js';
import type { Plant } from './plant.js';

/**
 * What a store holds for an id that was ever created: the live plant and its version, or the
 * tombstone the plant left when it was deleted. A plant's version is 1 when it is created and
 * grows by one with each committed change, its deletion included; every event of the plant
 * carries the version it made.
 */
export type PlantState =
  | { readonly live: true; readonly plant: Plant; readonly version: number }
  | { readonly live: false; readonly id: PlantId; readonly version: number; readonly retiredAt: Date };

/** When a plant was deleted, and by whom: kept with its tombstone, for ever. */
export interface PlantRetirement {
  readonly retiredAt: Date;
  readonly retiredByTokenId: string | undefined;
}

/** When a plant was changed: the time its PlantUpdated event carries. */
export interface PlantRevision {
  readonly changedAt: Date;
}

/*
 * The change side of a plant store (PUT and DELETE), apart from PlantRepository and
 * PlantReader so that a store written against those keeps compiling. A store that implements
 * it also holds to these, on every port it implements:
 * - A deleted plant leaves a tombstone under its id for ever: `insertIfAbsent` and
 *   `insertAllIfAbsent` answer `{ inserted: false, retired: true }` for it, `findById` and the
 *   lists never show it, and nothing can bring it back.
 * - The writes below are compare-and-set on the version: each resolves `true` only when it
 *   found the plant live at `expectedVersion` and committed (durably) the next version; `false`
 *   when another change won (the caller reads the state again and decides anew). Concurrent
 *   writes of one version, in any number of processes, let exactly one win.
 * - Ids and texts as in PlantRepository; an unreachable store throws StorageUnavailableError.
 * `@plantstore/domain/testing` holds a contract suite (plantChangeRepositoryContract) that
 * checks it.
 */
export interface PlantChangeRepository {
  /** The id's state now, or undefined when no plant was ever created with it. */
  stateOf(id: PlantId): Promise<PlantState | undefined>;
  /** Gives the live plant of `plant.id` the name and tag of `plant`, if its version is still `expectedVersion`. */
  replace(plant: Plant, expectedVersion: number, revision: PlantRevision): Promise<boolean>;
  /** Deletes the live plant of `id`, if its version is still `expectedVersion`: its content goes, its tombstone stays. */
  retire(id: PlantId, expectedVersion: number, retirement: PlantRetirement): Promise<boolean>;
}
