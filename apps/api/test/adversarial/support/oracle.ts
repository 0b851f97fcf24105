/**
 * An independent statement of the body rules of docs/http-api.md#newplant-rules, written from the contract rather than
 * from the code under test: a strict RFC 8259 parser of its own (numbers kept as literal
 * text), code points via Array.from, Unicode White_Space as an explicit list, int64 by BigInt.
 */

/** Unicode 15 PropList.txt, property White_Space: every code point, spelled out. */
export const WHITE_SPACE: readonly number[] = [
  0x0009, 0x000a, 0x000b, 0x000c, 0x000d, 0x0020, 0x0085, 0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];
const WHITE_SPACE_SET = new Set(WHITE_SPACE);

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const RANGE_MESSAGE = `id must be an integer between ${INT64_MIN} and ${INT64_MAX}`;

export const NAME_MAX = 200;
export const TAG_MAX = 64;

function isControl(codePoint: number): boolean {
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** True when some UTF-16 unit is a surrogate without its partner. */
export function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/** The problems docs/http-api.md#newplant-rules names for a `name`/`tag` string, phrased as the README's examples. */
export function textProblems(field: string, text: string, max: number): string[] {
  const codePoints = Array.from(text).map((c) => c.codePointAt(0)!);
  const problems: string[] = [];
  if (codePoints.length < 1 || codePoints.length > max) {
    problems.push(`${field} must be 1 to ${max} characters long (got ${codePoints.length})`);
  } else if (codePoints.every((c) => WHITE_SPACE_SET.has(c))) {
    problems.push(`${field} must not be only white space`);
  }
  if (codePoints.some(isControl))
    problems.push(`${field} must not contain control characters (U+0000-U+001F, U+007F-U+009F)`);
  if (hasLoneSurrogate(text)) problems.push(`${field} must not contain unpaired UTF-16 surrogates`);
  return problems;
}

const NUMBER_LITERAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/;

/**
 * The integer a JSON number literal denotes, exactly, or undefined when it denotes a
 * fraction. Works on the rational value digits × 10^scale without expanding huge exponents.
 */
export function integerOfLiteral(literal: string): bigint | undefined {
  const m = NUMBER_LITERAL.exec(literal);
  if (!m) return undefined;
  const [, sign, whole = '', fraction = '', expSign, expDigits = '0'] = m;
  const digits = BigInt(whole + fraction);
  if (digits === 0n) return 0n;
  const exponent = BigInt(expSign === '-' ? `-${expDigits}` : expDigits);
  const scale = exponent - BigInt(fraction.length);
  let magnitude: bigint;
  if (scale >= 0n) {
    // digits ≥ 1, so 10^scale alone already passes int64 beyond 19: report "some huge integer".
    magnitude = scale > 40n ? 10n ** 41n : digits * 10n ** scale;
  } else {
    const places = -scale;
    if (places > BigInt(whole.length + fraction.length)) return undefined; // 0 < |value| < 1
    const divisor = 10n ** places;
    if (digits % divisor !== 0n) return undefined;
    magnitude = digits / divisor;
  }
  return sign === '-' ? -magnitude : magnitude;
}

export function idProblem(literal: string): string | undefined {
  const value = integerOfLiteral(literal);
  return value !== undefined && value >= INT64_MIN && value <= INT64_MAX ? undefined : RANGE_MESSAGE;
}

// ---------------------------------------------------------------------------------------
// A strict JSON parser (RFC 8259), numbers kept as their literal text.

export class JsonNumber {
  constructor(readonly literal: string) {}
}
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | Map<string, JsonValue>;

export type JsonParse =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly reason: 'empty' | 'utf8' | 'syntax' | 'duplicate-key' | 'too-deep' };

const MAX_DEPTH = 2_000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function parseStrictJson(bytes: Buffer): JsonParse {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'utf8' };
  }
  const parser = new StrictParser(text);
  try {
    parser.skipSpace();
    const value = parser.value(0);
    parser.skipSpace();
    if (!parser.atEnd()) throw new SyntaxError('trailing content');
    return { ok: true, value };
  } catch (error) {
    if (error instanceof DuplicateKey) return { ok: false, reason: 'duplicate-key' };
    if (error instanceof TooDeep) return { ok: false, reason: 'too-deep' };
    if (error instanceof SyntaxError) return { ok: false, reason: 'syntax' };
    throw error;
  }
}

class DuplicateKey extends Error {}
class TooDeep extends Error {}

class StrictParser {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i === this.s.length;
  }

  skipSpace(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++;
  }

  private expect(char: string): void {
    if (this.s[this.i] !== char) throw new SyntaxError(`expected ${char} at ${this.i}`);
    this.i++;
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new TooDeep();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return value;
      }
    }
    throw new SyntaxError(`unexpected ${c ?? 'end'} at ${this.i}`);
  }

  private object(depth: number): Map<string, JsonValue> {
    this.expect('{');
    const result = new Map<string, JsonValue>();
    this.skipSpace();
    if (this.s[this.i] === '}') {
      this.i++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.skipSpace();
      this.expect(':');
      this.skipSpace();
      const value = this.value(depth + 1);
      // README decision: a repeated key is refused when its values differ.
      if (result.has(key) && canonical(result.get(key)!) !== canonical(value)) throw new DuplicateKey();
      result.set(key, value);
      this.skipSpace();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      this.expect('}');
      return result;
    }
  }

  private array(depth: number): JsonValue[] {
    this.expect('[');
    const result: JsonValue[] = [];
    this.skipSpace();
    if (this.s[this.i] === ']') {
      this.i++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      result.push(this.value(depth + 1));
      this.skipSpace();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      this.expect(']');
      return result;
    }
  }

  private string(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) throw new SyntaxError('unterminated string');
      const code = c.charCodeAt(0);
      if (code < 0x20) throw new SyntaxError('control character in string');
      this.i++;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && e in simple) {
        out += simple[e];
      } else if (e === 'u') {
        const hex = this.s.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new SyntaxError('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 4;
      } else {
        throw new SyntaxError('bad escape');
      }
    }
  }

  private number(): JsonNumber {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 100_000));
    if (!match || match[0] === '-' || match[0] === '') throw new SyntaxError(`bad number at ${this.i}`);
    this.i += match[0].length;
    return new JsonNumber(match[0]);
  }
}

function canonical(value: JsonValue): string {
  if (value instanceof JsonNumber) return `n:${value.literal}`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------
// The outcome docs/http-api.md prescribes for a body sent with a valid token and a JSON Content-Type.

export interface ExpectedPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

export type Expected =
  | { readonly status: 200; readonly plant: ExpectedPlant }
  | { readonly status: 400; readonly error: 40001 | 40002 }
  | { readonly status: 400; readonly error: 40003; readonly message: string }
  | { readonly status: 413; readonly error: 41301 };

/** The field problems of a parsed JSON object, in the order id, name, tag. */
export function newPlantProblems(body: Map<string, JsonValue>): { problems: string[]; plant?: ExpectedPlant } {
  const problems: string[] = [];
  const id = body.get('id');
  const name = body.get('name');
  const tag = body.get('tag');
  if (id === undefined || id === null) problems.push('id is required');
  else if (!(id instanceof JsonNumber)) problems.push('id must be a JSON number');
  else {
    const problem = idProblem(id.literal);
    if (problem) problems.push(problem);
  }
  if (name === undefined || name === null) problems.push('name is required');
  else if (typeof name !== 'string') problems.push('name must be a string');
  else problems.push(...textProblems('name', name, NAME_MAX));
  if (tag !== undefined) {
    if (typeof tag !== 'string') problems.push('tag must be a string if present; omit it for no tag');
    else problems.push(...textProblems('tag', tag, TAG_MAX));
  }
  if (problems.length > 0) return { problems };
  const plant: ExpectedPlant = {
    id: integerOfLiteral((id as JsonNumber).literal)!,
    name: name as string,
    ...(typeof tag === 'string' ? { tag } : {}),
  };
  return { problems, plant };
}

export function expectedOutcome(body: Buffer, bodyLimitBytes: number): Expected {
  if (body.length > bodyLimitBytes) return { status: 413, error: 41301 };
  const parsed = parseStrictJson(body);
  if (!parsed.ok) return { status: 400, error: 40001 };
  if (!(parsed.value instanceof Map)) return { status: 400, error: 40002 };
  const { problems, plant } = newPlantProblems(parsed.value);
  if (plant) return { status: 200, plant };
  return { status: 400, error: 40003, message: `The plant is invalid: ${problems.join('; ')}.` };
}
