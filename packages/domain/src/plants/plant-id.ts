import type { FieldViolation } from '../common/field-violation.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_INT64_DIGITS = 19;
const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
const CANONICAL_DECIMAL = /^(?:0|-?[1-9][0-9]{0,18})$/;

export const PLANT_ID_RANGE_MESSAGE = 'id must be an integer between -9223372036854775808 and 9223372036854775807';
export const PLANT_ID_UNSAFE_NUMBER_MESSAGE =
  'id is a JavaScript number that is not a safe integer, so its digits may already be lost: pass a string or bigint';

/**
 * The client-chosen identity of a plant: an exact signed 64-bit integer. Two PlantId objects
 * with the same value are the same id: compare with `equals`, key maps by `value` (a bigint)
 * or `toString()`, never by the object.
 */
export class PlantId {
  static readonly MIN = INT64_MIN;
  static readonly MAX = INT64_MAX;

  /** The decimal text, made once: a create keys maps and rows by it several times. */
  #decimal: string | undefined;

  private constructor(readonly value: bigint) {}

  static fromBigInt(value: bigint): PlantId | FieldViolation {
    // Plain JavaScript callers are not held to the type: a Number arrives here too.
    if (typeof value !== 'bigint') return fromUntypedValue(value);
    if (value < INT64_MIN || value > INT64_MAX) return { field: 'id', message: PLANT_ID_RANGE_MESSAGE };
    return new PlantId(value);
  }

  /**
   * Reads a JSON number literal exactly. Any literal that denotes an integer is accepted
   * (`1.0`, `1e2`, `-0`); exponents are compared, never expanded, so `1e1000000000` is
   * refused without building a billion-digit number.
   */
  static fromLiteral(literal: string): PlantId | FieldViolation {
    if (typeof literal !== 'string') return fromUntypedValue(literal);
    const value = integerValueOf(literal);
    return value === undefined ? { field: 'id', message: PLANT_ID_RANGE_MESSAGE } : PlantId.fromBigInt(value);
  }

  /**
   * Reads an id written as text a person or a URL carries: only the canonical decimal form of
   * an int64 (`0`, or an optional `-` and digits without a leading zero), so that one id has
   * one spelling. `007`, `+5`, `1e2`, `-0`, ` 5` and values outside int64 are refused, the
   * violation naming `field` (the parameter that carried it) and the rule.
   */
  static fromCanonical(text: string, field = 'id'): PlantId | FieldViolation {
    const violation = { field, message: canonicalIdMessage(field) };
    if (!CANONICAL_DECIMAL.test(text)) return violation;
    const id = PlantId.fromBigInt(BigInt(text));
    return id instanceof PlantId ? id : violation;
  }

  /** Trusted input from storage: the decimal text the adapter read back. */
  static fromStored(decimal: string | bigint): PlantId {
    const id = typeof decimal === 'string' ? PlantId.fromLiteral(decimal) : PlantId.fromBigInt(decimal);
    if (!(id instanceof PlantId)) throw new RangeError(`stored plant id ${decimal} is outside int64`);
    return id;
  }

  equals(other: PlantId): boolean {
    return this.value === other.value;
  }

  /** The exact decimal text, e.g. `"-9223372036854775808"`. */
  toString(): string {
    return (this.#decimal ??= this.value.toString());
  }

  /** JSON has no int64: the id serialises as its decimal text, never as a rounded number. */
  toJSON(): string {
    return this.toString();
  }
}

/** The rule of `fromCanonical`, worded for the parameter that broke it. */
export function canonicalIdMessage(field: string): string {
  return `${field} must be an integer between -9223372036854775808 and 9223372036854775807 in canonical decimal form (0, or an optional minus sign and digits without a leading zero; no plus sign, exponent or spaces)`;
}

/**
 * An id from a caller the types did not hold (plain JavaScript): a Number is taken only when it
 * is a safe integer, for past 2^53 it is already rounded (9007199254740993 arrives as …992) and
 * its decimal text shows digits it never had (2 ** 60 prints as 1152921504606847000).
 */
function fromUntypedValue(value: unknown): PlantId | FieldViolation {
  if (typeof value === 'bigint') return PlantId.fromBigInt(value);
  if (typeof value === 'string') return PlantId.fromLiteral(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return PlantId.fromBigInt(BigInt(value));
  if (typeof value === 'number') return { field: 'id', message: PLANT_ID_UNSAFE_NUMBER_MESSAGE };
  return { field: 'id', message: PLANT_ID_RANGE_MESSAGE };
}

const PLAIN_DECIMAL = /^-?(?:0|[1-9][0-9]{0,17})$/;

/** The integer a JSON number literal denotes, or undefined when it is a fraction or exceeds int64 digits. */
function integerValueOf(literal: string): bigint | undefined {
  // Nearly every id is written as a plain decimal; up to 18 digits it is always inside int64.
  if (PLAIN_DECIMAL.test(literal)) return BigInt(literal);
  const match = JSON_NUMBER.exec(literal);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailingZeros);
  // A huge exponent becomes ±Infinity here, which the checks below refuse without expanding it.
  const exponent = Number(exponentText) - fraction.length + trailingZeros;
  if (exponent < 0) return undefined;
  if (digits.length + exponent > MAX_INT64_DIGITS) return undefined;
  const magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  return sign === '-' ? -magnitude : magnitude;
}
