import { findConflictingKey } from './duplicate-keys.js';
import { JsonNumber } from './number-literal.js';
import { countHeldMembers, scanSource } from './source-scan.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type JsonObject = { readonly [key: string]: unknown };

/** Why bytes are not a JSON object; `not-an-object` is valid JSON of another type. */
export type JsonProblem = 'empty' | 'not-utf8' | 'not-json' | 'not-an-object';

export type JsonObjectReading =
  | { readonly ok: true; readonly object: JsonObject; readonly text: string }
  | {
      readonly ok: false;
      readonly problem: JsonProblem;
      /** What is wrong, as a sentence that starts with the subject ("The line is not valid UTF-8."). */
      readonly message: string;
      /** The decoded text, when the bytes were UTF-8. */
      readonly text: string | undefined;
    };

/**
 * Bytes → one JSON object, the way every reader of a NewPlant reads it (docs/http-api.md#newplant-rules):
 * strict UTF-8 (a leading BOM is dropped), parsed by the runtime's `JSON.parse`. Every number
 * that is a member of the object keeps its literal (`JsonNumber`, from one scan of the text),
 * so an int64 id is never rounded through a double; nested values are read as `JSON.parse`
 * reads them (nothing reads them exactly). A key repeated with a different value is refused,
 * at any depth. Keys like `__proto__` stay ordinary own properties.
 *
 * `subject` names the input in messages: "The request body", "The line".
 */
export function readJsonObject(bytes: Uint8Array, subject: string): JsonObjectReading {
  if (bytes.length === 0) return refused('empty', `${subject} is empty; send a JSON object.`, '');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused('not-utf8', `${subject} is not valid UTF-8.`, undefined);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return refused('not-json', `${subject} is not valid JSON: ${syntaxProblem(error)}.`, text);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return refused('not-an-object', `${subject} must be a JSON object, not ${describe(value)}.`, text);
  }
  const scan = scanSource(text);
  if (scan.writtenMembers !== countHeldMembers(value)) {
    let conflict: string | undefined;
    try {
      conflict = findConflictingKey(text);
    } catch (error) {
      return refused('not-json', `${subject} is not valid JSON: ${syntaxProblem(error)}.`, text);
    }
    if (conflict !== undefined) {
      return refused(
        'not-json',
        `${subject} is not valid JSON: Duplicate key '${shorten(conflict)}' with a different value.`,
        text,
      );
    }
  }
  return { ok: true, object: withNumberLiterals(value as Record<string, unknown>, scan.topLevelNumbers), text };
}

/** The parsed object with each number member replaced by its literal (defined, never assigned: `__proto__` stays a key). */
function withNumberLiterals(object: Record<string, unknown>, literals: ReadonlyMap<string, string>): JsonObject {
  for (const [key, literal] of literals) {
    if (typeof object[key] !== 'number') continue;
    Object.defineProperty(object, key, {
      value: new JsonNumber(literal),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** The parser's words, without the copy of the input V8 adds to some of them. */
function syntaxProblem(error: unknown): string {
  if (error instanceof RangeError) return 'it is nested too deeply';
  return (error as Error).message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
}

function shorten(key: string): string {
  return key.length > 64 ? `${key.slice(0, 64)}…` : key;
}

function refused(problem: JsonProblem, message: string, text: string | undefined): JsonObjectReading {
  return { ok: false, problem, message, text };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
