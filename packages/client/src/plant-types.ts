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

/**
 * A page as `listPlantPages` yields it: its plants, and `feedCursor` (not enumerable, so the page
 * compares and prints as its plants), the change feed's cursor the server took before reading
 * the page. Applied over the walk's pages, `followChanges({ after: <the first page's feedCursor> })`
 * keeps the copy exact without reading the feed from its start. Undefined from a server that
 * sends none.
 */
export type ListedPlantPage = ListedPlant[] & { readonly feedCursor: string | undefined };

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

/**
 * A plant's state in the change feed, as of the read: live with its name and tag, or deleted
 * (its id retired for good). `version` is 1 at its create and grows by one with each change, the
 * deletion included: a follower never sees it go down.
 */
export type PlantFeedChange =
  | {
      readonly id: bigint;
      readonly version: number;
      readonly deleted: false;
      readonly name: string;
      readonly tag?: string;
    }
  | { readonly id: bigint; readonly version: number; readonly deleted: true };

/** One page of the change feed, and the cursor to ask with next time (at the same place when `changes` is empty). */
export interface ChangesPage {
  readonly changes: readonly PlantFeedChange[];
  readonly next: string;
}

/** Which page of the feed: the changes after the cursor `after` (from the beginning when absent), `limit` at most (1–1000, 100 by default). */
export interface ChangesQuery {
  readonly after?: string | undefined;
  readonly limit?: number;
}

/**
 * What `followChanges` yields: changes in the feed's order and the cursor after them (keep it
 * to resume from there). `caughtUp` is true once the follower has read every change that existed
 * when it began: from then on each batch is one change as it commits.
 */
export interface FollowedChanges extends ChangesPage {
  readonly caughtUp: boolean;
}
