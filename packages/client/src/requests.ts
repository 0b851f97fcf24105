import { IF_MATCH } from './entity-tags.js';
import { PlantStoreInputError } from './errors.js';
import { describe } from './describe.js';
import { idLiteral } from './plant-id.js';
import type { ChangesQuery, ListPlantsQuery, NewPlant, PlantChange } from './plant-types.js';
import { isCursor } from './answers.js';
import type { FollowChangesOptions } from './change-follower.js';

/**
 * Request bodies and headers from what the caller handed over. Only what the client must know to
 * send a request is checked here (types, the int64 range, the header syntax); what a plant may
 * be (lengths, characters) is the server's rule, answered with 400 40003.
 */

/**
 * POST /plants's body, written by hand because JSON.stringify cannot write a bigint: the id goes
 * out as a JSON number with every digit, the strings as JSON strings.
 */
export function newPlantBody(plant: NewPlant): string {
  if (!isObject(plant))
    throw new PlantStoreInputError(`a new plant is an object { id, name, tag? } (got ${describe(plant)})`);
  return `{"id":${idLiteral(plant.id)},${contentMembers(plant)}}`;
}

/** PUT /plants/{id}'s body: the name, and the tag when there is one (absent removes it). */
export function plantChangeBody(change: PlantChange): string {
  if (!isObject(change))
    throw new PlantStoreInputError(`a change is an object { name, tag? } (got ${describe(change)})`);
  return `{${contentMembers(change)}}`;
}

function contentMembers({ name, tag }: PlantChange): string {
  if (typeof name !== 'string') throw new PlantStoreInputError(`a plant's name is a string (got ${describe(name)})`);
  if (tag !== undefined && typeof tag !== 'string')
    throw new PlantStoreInputError(`a plant's tag is a string, or absent (got ${describe(tag)})`);
  return tag === undefined
    ? `"name":${JSON.stringify(name)}`
    : `"name":${JSON.stringify(name)},"tag":${JSON.stringify(tag)}`;
}

/** The If-Match header for an ETag from an earlier answer (or `*`, or several tags separated by commas). */
export function ifMatchHeader(ifMatch: string | undefined): Record<string, string> {
  if (ifMatch === undefined) return {};
  if (typeof ifMatch !== 'string' || !IF_MATCH.test(ifMatch))
    throw new PlantStoreInputError(
      `ifMatch is an ETag as the server sent it, such as "\\"3f2a…\\"", or * (got ${describe(ifMatch)})`,
    );
  return { 'if-match': ifMatch };
}

const MAX_LIMIT = 1000;

/** GET /plants's query: `tags` repeated, `limit` when given. */
export function listSearchParams(query: ListPlantsQuery): URLSearchParams {
  if (!isObject(query))
    throw new PlantStoreInputError(`a list query is an object { tags?, limit? } (got ${describe(query)})`);
  const { tags = [], limit } = query;
  const params = new URLSearchParams();
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string'))
    throw new PlantStoreInputError(`tags is an array of strings (got ${describe(tags)})`);
  for (const tag of tags) params.append('tags', tag);
  if (limit !== undefined) params.set('limit', String(checkedLimit(limit)));
  return params;
}

/** GET /plants/changes's query: `after` and `limit` when given. */
export function changesSearchParams(query: ChangesQuery): URLSearchParams {
  if (!isObject(query))
    throw new PlantStoreInputError(`a changes query is an object { after?, limit? } (got ${describe(query)})`);
  const params = new URLSearchParams();
  if (query.after !== undefined) params.set('after', checkedCursor(query.after));
  if (query.limit !== undefined) params.set('limit', String(checkedLimit(query.limit)));
  return params;
}

const DEFAULT_FOLLOW_LIMIT = 100;

/** followChanges's options checked before anything is sent; the page size it catches up with. */
export function checkFollowOptions(options: FollowChangesOptions): number {
  if (!isObject(options))
    throw new PlantStoreInputError(
      `followChanges takes { after?, limit?, signal?, silenceTimeoutMs? } (got ${describe(options)})`,
    );
  if (options.after !== undefined) checkedCursor(options.after);
  const { silenceTimeoutMs } = options;
  if (
    silenceTimeoutMs !== undefined &&
    (typeof silenceTimeoutMs !== 'number' || !Number.isFinite(silenceTimeoutMs) || silenceTimeoutMs < 1)
  )
    throw new PlantStoreInputError(
      `silenceTimeoutMs is a number of milliseconds from 1 up (got ${describe(silenceTimeoutMs)})`,
    );
  return options.limit === undefined ? DEFAULT_FOLLOW_LIMIT : checkedLimit(options.limit);
}

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new PlantStoreInputError(`limit must be a whole number from 1 to ${MAX_LIMIT} (got ${describe(limit)})`);
  return limit;
}

function checkedCursor(after: string): string {
  if (!isCursor(after))
    throw new PlantStoreInputError(
      `after is a cursor as the feed handed it out, \`next\` of a page (got ${describe(after)})`,
    );
  return after;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
