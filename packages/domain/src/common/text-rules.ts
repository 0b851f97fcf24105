import type { FieldViolation } from './field-violation.js';

// Control characters are exactly what this pattern is for.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/u;
const LONE_SURROGATE = /\p{Surrogate}/u;
const ONLY_WHITE_SPACE = /^\p{White_Space}+$/u;

/** Unicode code points in `text`; an unpaired surrogate counts as one. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single astral code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * The rule shared by every human-readable text (plant name and tag, token name): 1..max code
 * points, not only white space, no control characters, no lone surrogates. Returns every
 * problem found, each message starting with the field's name.
 */
export function textViolations(field: string, text: string, maxCodePoints: number): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const length = countCodePoints(text);
  if (length < 1 || length > maxCodePoints) {
    violations.push({ field, message: `${field} must be 1 to ${maxCodePoints} characters long (got ${length})` });
  } else if (ONLY_WHITE_SPACE.test(text)) {
    violations.push({ field, message: `${field} must not be only white space` });
  }
  if (CONTROL_CHARACTER.test(text)) {
    violations.push({ field, message: `${field} must not contain control characters (U+0000-U+001F, U+007F-U+009F)` });
  }
  if (LONE_SURROGATE.test(text)) {
    violations.push({ field, message: `${field} must not contain unpaired UTF-16 surrogates` });
  }
  return violations;
}
