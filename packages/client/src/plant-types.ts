import type { components } from './generated/openapi.js';

/** What `createPlant` sends: `id` is a bigint or a decimal string. */
export type NewPlant = components['schemas']['NewPlant'];

/** What the server answers: the stored plant, without its id. */
export type Plant = components['schemas']['Plant'];

/** What `updatePlant` sends: the plant's new name, and its tag (absent: the plant has none from now on). */
export interface PlantChange {
  readonly name: string;
  readonly tag?: string;
}

/**
 * A plant as stored now, and its ETag: the version to name in `If-Match` when changing or
 * deleting it, so that a change made meanwhile by someone else is not overwritten.
 */
export interface PlantWithEtag {
  readonly plant: Plant;
  readonly etag: string;
}

/** A plant as `listPlants` yields it: its id as an exact bigint, its name, its tag when it has one. */
export interface ListedPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** What to list: only plants tagged with one of `tags` (all when absent), `limit` per page (1–1000, 100 by default). */
export interface ListPlantsQuery {
  readonly tags?: readonly string[];
  /**
   * Only plants whose name contains this text, case- and accent-insensitively (`fougere` finds
   * `Fougère`, `ß` finds `SS`): 1 to 200 characters; the server judges the rest (400 40004).
   */
  readonly name?: string;
  readonly limit?: number;
}
