import type { PlantId } from './plant-id.js';
import type { PlantNameSearch } from './plant-name-search.js';
import type { PlantTag } from './plant-tag.js';
import type { Plant } from './plant.js';

/** One keyset page to read: what `PlantPageQuery` (plant-page-query.ts) checked, as the store needs it. */
export interface PlantPageRequest {
  /** Only ids greater than this one (by value); from the lowest id when undefined. */
  readonly after: PlantId | undefined;
  /** Only plants whose tag equals one of these (exactly, as stored); every plant when empty. */
  readonly tags: readonly PlantTag[];
  /**
   * Only plants whose name's key (PlantName.key) contains `name.key`: case- and
   * accent-insensitive, as plant-name-key.ts defines; every plant when undefined.
   */
  readonly name?: PlantNameSearch | undefined;
  /** At most this many plants: a whole number of at least 1. */
  readonly limit: number;
}

/*
 * The read side of a plant store, apart from PlantRepository so that a store written against
 * the create port alone keeps compiling. The facts of PlantRepository hold here too: identity
 * is the id's value, ids never go through Number, texts and absent tags come back as stored.
 * `@plantstore/domain/testing` holds a contract suite (plantReaderContract) that checks it.
 */
export interface PlantReader {
  /**
   * The plant stored under this id's value, or undefined. Throws StorageUnavailableError when
   * the store cannot be reached.
   */
  findById(id: PlantId): Promise<Plant | undefined>;
  /**
   * Up to `limit` plants with an id greater than `after`, when `tags` is not empty a tag equal
   * to one of them, and when `name` is given a name that contains it (both must hold); ascending by id VALUE (-1 before 0, 2^53 before 2^53 + 1, never as
   * text). Each page is read at one moment (one statement or snapshot), and plants are never
   * deleted, so walking pages by the last id returns every plant that existed when the walk
   * began exactly once, whatever is inserted meanwhile. Throws StorageUnavailableError when
   * the store cannot be reached.
   */
  listPage(request: PlantPageRequest): Promise<Plant[]>;
}
