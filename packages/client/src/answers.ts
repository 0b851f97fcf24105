import { ENTITY_TAG } from './entity-tags.js';
import { parseInt64 } from './plant-id.js';
import type { ListedPlant, Plant, PlantWithEtag } from './plant-types.js';

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
  if (etag === null || !ENTITY_TAG.test(etag)) throw new MalformedAnswer(`ETag missing or malformed: ${String(etag)}`);
  return { plant, etag };
}

// The server writes each item as `{"id":<digits>,…`: the digits become a string before
// JSON.parse, which would round them to a double. Outside a string, `[{"id":` or `,{"id":` can
// only be an item's first member (inside one, every quote is escaped). The string starts with
// U+0000, which no plant's text may hold, so an id the server wrote as a string stays refused.
const ITEM_ID = /([[,]\s*\{\s*"id"\s*:\s*)(-?[0-9]+)(?=\s*[,}])/g;
const DIGITS_MARK = '\0';

/** A GET /plants body as plants with exact bigint ids. */
export function readPlantList(text: string): ListedPlant[] {
  const value = parseJson(text.replace(ITEM_ID, '$1"\\u0000$2"'));
  if (!Array.isArray(value)) throw new MalformedAnswer('not a list of plants');
  return (value as unknown[]).map((item, index) => {
    const plant = isRecord(item) ? plantFields(item) : undefined;
    if (!isRecord(item) || plant === undefined) throw new MalformedAnswer(`item ${index} is not a plant`);
    const id = item['id'];
    const digits = typeof id === 'string' && id.startsWith(DIGITS_MARK) ? id.slice(1) : undefined;
    const exact = digits === undefined ? undefined : parseInt64(digits);
    if (exact === undefined)
      throw new MalformedAnswer(`item ${index}: its id ${digits ?? JSON.stringify(id) ?? 'undefined'} is not an int64`);
    return { id: exact, ...plant };
  });
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
