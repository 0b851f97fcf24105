import type { InsertOutcome } from './plant-repository.js';
import type { Plant } from './plant.js';

/*
 * The duplicate-id rule, in one place. A plant's id is chosen by its client, so a request for
 * an id that is already taken is either the same plant again (a retry: `replayed`) or another
 * plant (`conflict`); neither writes anything. An id that belonged to a deleted plant is
 * `retired`, whatever the request holds: a late retry of the create that made the plant must
 * not bring it back. Within one batch the first request for an id is
 * the one written, and later requests for it are judged against what that first one left.
 * CreatePlant, ImportPlants and the repositories' group commits all answer by these functions.
 */

/** What a request to create a plant came to. */
export type CreateOutcome = 'created' | 'replayed' | 'conflict' | 'retired';

export interface SettledCreate {
  readonly outcome: CreateOutcome;
  /**
   * What the store holds for the id now: the requested plant when created, else the stored
   * one; for `retired`, where the store holds no plant, the requested one.
   */
  readonly plant: Plant;
}

/** What a request for `requested` came to, given what its insert did. */
export function settleCreate(requested: Plant, insert: InsertOutcome): SettledCreate {
  if (insert.inserted) return { outcome: 'created', plant: requested };
  if ('retired' in insert) return { outcome: 'retired', plant: requested };
  const outcome = insert.existing.hasSameContentAs(requested) ? 'replayed' : 'conflict';
  return { outcome, plant: insert.existing };
}

type SettledInsert = PromiseSettledResult<InsertOutcome>;

/**
 * Inserts a batch of requests that may repeat ids: `insertDistinct` gets the first request of
 * each id (arrival order, ids distinct) and answers one outcome per request it was given. A
 * later request for the same id is answered as if it found what the first request left: the
 * first's plant when it was inserted, the stored plant when it was not, the first's failure
 * when it failed. One outcome per request, in the batch's order.
 * @throws {Error} `insertDistinct` answered a different number of outcomes than it was given requests.
 */
export async function insertFirstOfEachId<R>(
  requests: readonly R[],
  plantOf: (request: R) => Plant,
  insertDistinct: (firsts: readonly R[]) => Promise<readonly SettledInsert[]>,
): Promise<SettledInsert[]> {
  const firstIndexOfId = new Map<string, number>();
  const firsts: R[] = [];
  // For each request: the index of its id's first request in `firsts`, negated (-1 - index) when it is a later one.
  const places = requests.map((request) => {
    const key = plantOf(request).id.toString();
    const index = firstIndexOfId.get(key);
    if (index !== undefined) return -1 - index;
    firstIndexOfId.set(key, firsts.length);
    return firsts.push(request) - 1;
  });
  const outcomes = firsts.length === 0 ? [] : await insertDistinct(firsts);
  if (outcomes.length !== firsts.length)
    throw new Error(`the repository answered ${outcomes.length} outcomes for ${firsts.length} plants`);
  return places.map((place) => {
    if (place >= 0) return outcomes[place]!;
    const index = -1 - place;
    const first = outcomes[index]!;
    if (first.status === 'rejected' || !first.value.inserted) return first;
    return { status: 'fulfilled', value: { inserted: false, existing: plantOf(firsts[index]!) } };
  });
}
