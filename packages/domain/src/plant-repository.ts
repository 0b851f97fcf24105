import type { Plant } from './plant.js';

/** Who stored a plant and when: kept beside the plant, never part of its public shape. */
export interface PlantProvenance {
  readonly createdByTokenId: string | undefined;
  readonly createdAt: Date;
}

export type InsertOutcome =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly existing: Plant };

export interface PlantRepository {
  /**
   * Stores the plant unless its id is taken, atomically: concurrent calls for one id leave
   * exactly one row, and every loser is told what the winner stored. Resolves only once the
   * write is durable. Throws StorageUnavailableError when the store cannot be reached.
   */
  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome>;
}
