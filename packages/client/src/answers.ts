import { ENTITY_TAG } from './entity-tags.js';
import { parseInt64 } from './plant-id.js';
import type { ChangesPage, ListedPlant, Plant, PlantFeedChange, PlantWithEtag } from './plant-types.js';

/**
 * Reading the API's successful answers. Each reader takes an answer with the success status and
 * returns its value, or throws a MalformedAnswer saying what is wrong with it: the server's
 * answers are checked as strictly as what the client sends.
 */
export class MalformedAnswer extends Error {
  override name = 'MalformedAnswer';
}

export function readPlant(text: string): Plant {
  const value = parseJson(text);
  if (!isRecord(value)) throw new MalformedAnswer('not a Plant object');
  const plant = plantFields(value);
  if (plant === undefined) throw new MalformedAnswer('not a Plant: name must be a string, tag a string when present');
  return plant;
}

/** A 200 Plant with its ETag (RFC 9110 §8.8.3), which GET and PUT always send. */
export function readPlantWithEtag(response: Response, text: string): PlantWithEtag {
  const plant = readPlant(text);
  const etag = response.headers.get('etag');
  if (etag === null)
    throw new MalformedAnswer(
      'no ETag header: the API sends one with every 200 Plant, and the client refuses an answer without it (a proxy on the way may have removed it)',
    );
  if (!ENTITY_TAG.test(etag)) throw new MalformedAnswer(`the ETag header is not an entity tag: ${etag}`);
  return { plant, etag };
}

// The server writes each item as `{"id":<number>,…`: the number (any run of what a number
// may hold, so that a malformed one is quoted too) becomes a string before
// JSON.parse, which would round it to a double, so that the client reads the digits the server
// sent (and quotes them when they are not an int64). Outside a string, `[{"id":` or `,{"id":`
// can only be an item's first member (inside one, every quote is escaped). The string starts
// with U+0000, which no plant's text may hold, so an id the server wrote as a string stays refused.
const ITEM_ID = /([[,]\s*\{\s*"id"\s*:\s*)(-?[0-9][0-9.eE+-]*)(?=\s*[,}])/g;
const DIGITS_MARK = '\0';

/** A JSON array of objects whose `id` members are marked (see ITEM_ID), or undefined when the text is no JSON. */
function parseMarkedItems(text: string): unknown {
  return parseJson(text.replace(ITEM_ID, '$1"\\u0000$2"'));
}

/** A marked item's id as an exact bigint; a MalformedAnswer quoting what the server sent when it is not an int64. */
function exactId(item: Record<string, unknown>, index: number): bigint {
  const id = item['id'];
  const sent = typeof id === 'string' && id.startsWith(DIGITS_MARK) ? id.slice(1) : undefined;
  const exact = sent === undefined ? undefined : parseInt64(sent);
  if (exact === undefined)
    throw new MalformedAnswer(
      `item ${index}: its id ${sent ?? JSON.stringify(id) ?? 'undefined'} (as the server sent it) is not an int64`,
    );
  return exact;
}

/** A GET /plants body as plants with exact bigint ids. */
export function readPlantList(text: string): ListedPlant[] {
  const value = parseMarkedItems(text);
  if (!Array.isArray(value)) throw new MalformedAnswer('not a list of plants');
  return (value as unknown[]).map((item, index) => {
    const plant = isRecord(item) ? plantFields(item) : undefined;
    if (!isRecord(item) || plant === undefined) throw new MalformedAnswer(`item ${index} is not a plant`);
    return { id: exactId(item, index), ...plant };
  });
}

/** A GET /plants/changes body `{"changes": [...], "next": "<cursor>"}`, ids exact. */
export function readChangesPage(text: string): ChangesPage {
  const value = parseMarkedItems(text);
  if (!isRecord(value) || !Array.isArray(value['changes']) || !isCursor(value['next']))
    throw new MalformedAnswer('not a page of changes { changes, next }');
  const changes = (value['changes'] as unknown[]).map((item, index) => feedChange(item, index));
  return { changes, next: value['next'] };
}

/** The data of one `change` event of the feed's stream: one entry, as a page holds it. */
export function readFeedEvent(data: string): PlantFeedChange {
  const value = parseMarkedItems(`[${data}]`);
  if (!Array.isArray(value) || value.length !== 1) throw new MalformedAnswer('the event is not one change');
  return feedChange(value[0], 0);
}

/** A cursor as the API hands it out: opaque, URL-safe, at most 100 characters. */
export function isCursor(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9._~-]{1,100}$/.test(value);
}

function feedChange(item: unknown, index: number): PlantFeedChange {
  if (!isRecord(item)) throw new MalformedAnswer(`change ${index} is not an object`);
  const id = exactId(item, index);
  const version = item['version'];
  if (!Number.isSafeInteger(version) || (version as number) < 1)
    throw new MalformedAnswer(`change ${index}: its version is not a whole number from 1`);
  if (item['deleted'] === true) return { id, version: version as number, deleted: true };
  const plant = item['deleted'] === undefined ? plantFields(item) : undefined;
  if (plant === undefined)
    throw new MalformedAnswer(`change ${index} is neither a plant (name, tag?) nor a deletion (deleted: true)`);
  return { id, version: version as number, deleted: false, ...plant };
}

/** The target of the `rel="next"` member of a Link header (RFC 8288), or undefined. */
export function nextTarget(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const member of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(member);
    if (match && /;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/**
 * The change feed's cursor a list page carries (`Feed-Cursor`), or undefined when the server
 * sent none (one older than it) or something a cursor cannot be (a cursor is 1 to 100 of `[0-9a-z.-]`).
 */
export function feedCursorOf(header: string | null): string | undefined {
  return header !== null && /^[0-9a-z.-]{1,100}$/.test(header) ? header : undefined;
}

/** The API's Error body `{"error": <code>, "message": <sentence>}`, or undefined when the body is not one. */
export function readErrorBody(text: string): { code: number; message: string } | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || !Number.isInteger(value['error']) || typeof value['message'] !== 'string') return undefined;
  return { code: value['error'] as number, message: value['message'] };
}

function plantFields(value: Record<string, unknown>): Plant | undefined {
  const { name, tag } = value;
  if (typeof name !== 'string') return undefined;
  if (tag === undefined) return { name };
  return typeof tag === 'string' ? { name, tag } : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
