import { JsonNumber } from './number-literal.js';
import { decodeKey } from './source-scan.js';

/**
 * I-JSON (RFC 7493) refuses an object that repeats a key with a different value; `JSON.parse`
 * keeps the last one silently. This runs only when the text writes more members than the
 * parsed objects hold, so some key is repeated.
 */

// Strings and the structural characters; numbers and literals are skipped by the expression.
const STRUCTURE = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\]:,]/g;

type Frame =
  | { readonly kind: 'object'; readonly seen: Map<string, string>; key: string | undefined; valueStart: number }
  | { readonly kind: 'array' };

/**
 * The first key some object of the (valid JSON) text repeats with a different value, or
 * undefined. Values are compared as written when their text is the same; otherwise as read
 * (numbers by their literal, objects by their members in any order). Iterative over the text.
 * Throws RangeError when two differing values nest too deeply to compare.
 */
export function findConflictingKey(text: string): string | undefined {
  const stack: Frame[] = [];
  STRUCTURE.lastIndex = 0;
  for (let match = STRUCTURE.exec(text); match !== null; match = STRUCTURE.exec(text)) {
    const token = match[0];
    const top = stack.at(-1);
    if (token === '{') stack.push({ kind: 'object', seen: new Map(), key: undefined, valueStart: 0 });
    else if (token === '[') stack.push({ kind: 'array' });
    else if (top?.kind !== 'object') {
      if (token === ']') stack.pop();
    } else if (token === ':') top.valueStart = match.index + 1;
    else if (token === ',' || token === '}') {
      const key = top.key;
      if (key !== undefined && conflicts(top, key, text.slice(top.valueStart, match.index).trim())) return key;
      if (token === '}') stack.pop();
    } else if (top.key === undefined) top.key = decodeKey(token);
  }
  return undefined;
}

/** Records the member just ended; true when its key was seen before with a different value. */
function conflicts(frame: Extract<Frame, { kind: 'object' }>, key: string, value: string): boolean {
  frame.key = undefined;
  const earlier = frame.seen.get(key);
  frame.seen.set(key, value);
  return earlier !== undefined && earlier !== value && !sameValue(readLiterally(earlier), readLiterally(value));
}

function readLiterally(json: string): unknown {
  return JSON.parse(json, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' ? new JsonNumber(context!.source!) : value,
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    return a instanceof JsonNumber && b instanceof JsonNumber && a.literal === b.literal;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  const keys = Object.keys(aRecord);
  return (
    keys.length === Object.keys(bRecord).length &&
    keys.every((key) => Object.hasOwn(bRecord, key) && sameValue(aRecord[key], bRecord[key]))
  );
}
