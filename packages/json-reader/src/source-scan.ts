/**
 * One pass over the text of a valid JSON document, for what `JSON.parse` does not keep: how
 * many object members the text writes (so a repeated key can be noticed), and the exact
 * literal of every number written as a member of the outermost object (so an int64 id is
 * never rounded through a double). String contents are skipped with indexOf, not walked.
 */
export interface SourceScan {
  /** Members written anywhere in the text: the colons outside strings. */
  readonly writtenMembers: number;
  /** Key → literal for each number-valued member of the outermost object (the last one written wins, as in JSON.parse). */
  readonly topLevelNumbers: ReadonlyMap<string, string>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

export function scanSource(text: string): SourceScan {
  const topLevelNumbers = new Map<string, string>();
  let writtenMembers = 0;
  let depth = 0;
  let keyStart = 0;
  let keyEnd = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      keyStart = at;
      at = endOfString(text, at) - 1;
      keyEnd = at + 1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
    else if (code === COLON) {
      writtenMembers++;
      if (depth === 1) {
        const literal = numberAt(text, at + 1);
        if (literal !== undefined) topLevelNumbers.set(decodeKey(text.slice(keyStart, keyEnd)), literal);
      }
    }
  }
  return { writtenMembers, topLevelNumbers };
}

/** The index just past the string literal that opens at `quote` (found with indexOf: contents are not walked). */
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

/** The number literal that starts, after white space, at `at`; undefined for another value. */
function numberAt(text: string, at: number): string | undefined {
  WHITESPACE.lastIndex = at;
  WHITESPACE.exec(text);
  NUMBER.lastIndex = WHITESPACE.lastIndex;
  return NUMBER.exec(text)?.[0];
}

export function decodeKey(token: string): string {
  return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
}

/** How many members the parsed objects hold, all levels; iterative, so no depth overflows it. */
export function countHeldMembers(root: unknown): number {
  let held = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        held++;
        const member = (value as Record<string, unknown>)[key];
        if (member !== null && typeof member === 'object') pending.push(member);
      }
    }
  }
  return held;
}
