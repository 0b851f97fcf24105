import { JsonNumber } from './number-literal.js';

/**
 * I-JSON (RFC 7493) refuses an object that repeats a key with a different value, and the
 * native parser keeps the last one silently. Detecting that costs one pass over the text:
 * the members written (colons outside strings) are counted and compared with the keys the
 * parsed objects hold; only when they differ is a repeated key's value compared.
 */

const BACKSLASH = 0x5c;

/** How many object members the text writes: its colons outside strings. The text is valid JSON. */
export function countWrittenMembers(text: string): number {
  let members = 0;
  let at = 0;
  for (;;) {
    const quote = text.indexOf('"', at);
    const plainEnd = quote === -1 ? text.length : quote;
    for (let colon = text.indexOf(':', at); colon !== -1 && colon < plainEnd; colon = text.indexOf(':', colon + 1)) {
      members++;
    }
    if (quote === -1) return members;
    at = endOfString(text, quote);
  }
}

/** The index just past the string literal that opens at `quote`. */
function endOfString(text: string, quote: number): number {
  let close = text.indexOf('"', quote + 1);
  while (isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close + 1;
}

function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

// Strings, punctuation, and the rest (numbers, true, false, null) of text already known valid.
const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\],:]|[^\s{}[\],:"]+/g;

type Span = readonly [start: number, end: number];
type Frame =
  | { readonly kind: 'object'; readonly start: number; readonly seen: Map<string, Span>; key: string | undefined }
  | { readonly kind: 'array'; readonly start: number };

/**
 * The first key some object of the (valid JSON) text repeats with a different value, or
 * undefined. Values are compared as the reader reads them (`parse`): numbers by their literal,
 * objects by their members in any order. Iterative, so deep nesting cannot overflow the stack.
 */
export function findConflictingKey(text: string, parse: (json: string) => unknown): string | undefined {
  const stack: Frame[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const at = match.index;
    let value: Span;
    if (token === '{') {
      stack.push({ kind: 'object', start: at, seen: new Map(), key: undefined });
      continue;
    } else if (token === '[') {
      stack.push({ kind: 'array', start: at });
      continue;
    } else if (token === ',' || token === ':') {
      continue;
    } else if (token === '}' || token === ']') {
      value = [stack.pop()!.start, at + 1];
    } else {
      const top = stack.at(-1);
      if (top?.kind === 'object' && top.key === undefined) {
        top.key = JSON.parse(token) as string;
        continue;
      }
      value = [at, at + token.length];
    }
    const holder = stack.at(-1);
    if (holder?.kind !== 'object' || holder.key === undefined) continue;
    const key = holder.key;
    holder.key = undefined;
    const earlier = holder.seen.get(key);
    if (earlier && !sameValue(parse(text.slice(...earlier)), parse(text.slice(...value)))) return key;
    holder.seen.set(key, value);
  }
  return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    return a instanceof JsonNumber && b instanceof JsonNumber && a.literal === b.literal;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  return (
    aKeys.length === Object.keys(b).length &&
    aKeys.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], bRecord[key]))
  );
}
