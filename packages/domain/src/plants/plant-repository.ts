import type { PlantId } from './plant-id.js';
import type { Plant } from './plant.js';

/** Who stored a plant and when: kept beside the plant, never part of its public shape. */
export interface PlantProvenance {
  readonly createdByTokenId: string | undefined;
  readonly createdAt: Date;
}

/**
 * What an insert found: the id was free (now the plant's), held by a plant (`existing`), or
 * retired: it belonged to a plant that was deleted, and ids are never used again (only a store
 * that implements PlantChangeRepository retires ids; others never answer `retired`).
 */
export type InsertOutcome =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly existing: Plant }
  | { readonly inserted: false; readonly retired: true };

/*
 * For every implementation of the plant ports:
 * - A plant's identity is its id's VALUE. PlantId objects are not interned: two plants parsed
 *   from "100" and "1e2" carry two PlantId objects for one id. Key storage by `id.value` (a
 *   bigint) or `id.toString()`; a Map keyed by the PlantId object type-checks and silently
 *   stores duplicates.
 * - Ids are exact int64: never pass them through Number (2^53 + 1 would become 2^53).
 * - Names and tags are stored exactly as given (no trimming, no normalisation), and an absent
 *   tag stays absent (read back as `undefined`).
 * - A store that cannot be reached throws StorageUnavailableError; anything else thrown is a bug.
 * `@plantstore/domain/testing` holds a contract suite that checks all of this.
 */

export interface PlantRepository {
  /**
   * Stores the plant unless its id is taken, atomically: concurrent calls for one id leave
   * exactly one row, and every loser is told what the winner stored (or that the id is
   * retired). Resolves only once the write is durable. Throws StorageUnavailableError when the
   * store cannot be reached.
   */
  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome>;
}

/** Bulk access for import and export: whole batches in, pages in id order out. */
export interface PlantBatchRepository {
  /**
   * Inserts every plant whose id is free in ONE transaction: after a crash or a refused row
   * either all new rows of the batch exist or none. Ids must be distinct. Resolves once
   * durable, with one outcome per plant in input order (the stored plant where the id was
   * taken, `retired` where it was retired). Throws StorageUnavailableError when the store
   * cannot be reached.
   */
  insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]>;
  /**
   * Up to `limit` live plants with an id greater than `after` (from the start when
   * undefined), ascending by id value: a deleted plant is never listed.
   */
  listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]>;
}
