import { countWrittenMembers, findConflictingKey } from './duplicate-keys.js';
import { JsonNumber } from './number-literal.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Node ≥ 22 hands a reviver each value's source text; an older runtime would round ids silently.
const READS_SOURCE_TEXT =
  JSON.parse('1', (_key, value: unknown, context?: { source?: string }) => (context?.source === '1' ? true : value)) ===
  true;

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
 * strict UTF-8 (a leading BOM is dropped), parsed by the runtime's own `JSON.parse`, whose
 * reviver hands over each number's source text (Node ≥ 22): numbers stay as their literal
 * (`JsonNumber`), so an int64 id is never rounded through a double. A key repeated with a
 * different value is refused; nesting deeper than the runtime's stack allows is refused as
 * "nested too deeply". Keys like `__proto__` stay ordinary own properties.
 *
 * `subject` names the input in messages: "The request body", "The line".
 */
export function readJsonObject(bytes: Uint8Array, subject: string): JsonObjectReading {
  if (!READS_SOURCE_TEXT)
    throw new Error(`JSON numbers cannot be read exactly on Node ${process.version}: use Node 24 or 26.`);
  if (bytes.length === 0) return refused('empty', `${subject} is empty; send a JSON object.`, '');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused('not-utf8', `${subject} is not valid UTF-8.`, undefined);
  }
  let value: unknown;
  let conflict: string | undefined;
  try {
    const parsed = parseKeepingLiterals(text);
    value = parsed.value;
    if (parsed.members !== countWrittenMembers(text))
      conflict = findConflictingKey(text, (json) => parseKeepingLiterals(json).value);
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
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof JsonNumber) {
    return refused('not-an-object', `${subject} must be a JSON object, not ${describe(value)}.`, text);
  }
  return { ok: true, object: value as JsonObject, text };
}

/** The parsed value, numbers as `JsonNumber`, and how many members its objects hold. */
function parseKeepingLiterals(text: string): { value: unknown; members: number } {
  let members = 0;
  const value: unknown = JSON.parse(text, (_key, parsed: unknown, context?: { source?: string }) => {
    if (typeof parsed === 'number') return new JsonNumber(context!.source!);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) members += Object.keys(parsed).length;
    return parsed;
  });
  return { value, members };
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
  if (value instanceof JsonNumber) return 'a number';
  return `a ${typeof value}`;
}
