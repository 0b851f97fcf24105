import { isLosslessNumber, parse } from 'lossless-json';

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
 * strict UTF-8 (a leading BOM is dropped), parsed losslessly: numbers stay as their literal
 * text, so an int64 id is never rounded through a double. A key repeated with a different
 * value is refused; nesting deeper than the parser's stack allows is refused as "nested too
 * deeply".
 * Keys like `__proto__` stay ordinary own properties.
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
    value = parse(text);
  } catch (error) {
    const detail = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message;
    return refused('not-json', `${subject} is not valid JSON: ${detail}.`, text);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) {
    return refused('not-an-object', `${subject} must be a JSON object, not ${describe(value)}.`, text);
  }
  return { ok: true, object: value as JsonObject, text };
}

function refused(problem: JsonProblem, message: string, text: string | undefined): JsonObjectReading {
  return { ok: false, problem, message, text };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isLosslessNumber(value)) return 'a number';
  return `a ${typeof value}`;
}
