import fc from 'fast-check';

/**
 * Code points a careless rule gets wrong: look-alikes of white space that are NOT Unicode
 * White_Space (ZWSP, joiners, BOM, Mongolian vowel separator since Unicode 6.3, Hangul
 * fillers, soft hyphen), non-characters, and the edges of the control ranges.
 */
const TRICKY = [
  0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x115f, 0x1160, 0x3164, 0xffa0, 0xfffe, 0xffff, 0xfdd0,
  0x1fffe, 0x10ffff, 0x001f, 0x0020, 0x007e, 0x007f, 0x009f, 0x00a0, 0x00a1, 0x2029, 0x202a, 0x205f, 0x2060, 0x3000,
  0x3001,
];
/** Every Unicode White_Space code point, as the generator's source of "blank" text. */
const BLANKS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2005, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f,
  0x3000,
];

/** One piece of text: a code point or, for surrogates, a single UTF-16 unit. */
export const textPiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.constantFrom(...BLANKS).map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY).map((c) => String.fromCodePoint(c)) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
      .map((c) => String.fromCharCode(c)),
  },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);

/** Lengths (in pieces) around every boundary of the name (200) and tag (64) rules. */
const pieceCount = fc.oneof(
  fc.integer({ min: 0, max: 4 }),
  fc.constantFrom(63, 64, 65, 199, 200, 201),
  fc.integer({ min: 0, max: 215 }),
);

/** Text with astral characters, controls, lone surrogates and white space of every kind. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: pieceCount.chain((n) => fc.array(textPiece, { minLength: n, maxLength: n })).map((p) => p.join('')),
  },
  // Only white space, or white space with one other piece: the "blank" rule's edges.
  {
    weight: 2,
    arbitrary: pieceCount
      .chain((n) =>
        fc.array(
          fc.constantFrom(...BLANKS).map((c) => String.fromCodePoint(c)),
          { minLength: n, maxLength: n },
        ),
      )
      .map((p) => p.join('')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string({ unit: fc.constantFrom(...BLANKS.map((c) => String.fromCodePoint(c))), maxLength: 10 }),
        textPiece,
      )
      .map(([a, b]) => a + b),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 210 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 70 }) },
);

const INT64 = 2n ** 63n;
const F64 = 2n ** 53n;

/** Integers at and around ±2^63, ±2^53 and 0, and anywhere in and beyond int64. */
export const boundaryInteger: fc.Arbitrary<bigint> = fc.oneof(
  fc
    .tuple(fc.constantFrom(0n, F64, -F64, INT64, -INT64, INT64 - 1n, -INT64 - 1n), fc.bigInt({ min: -3n, max: 3n }))
    .map(([b, d]) => b + d),
  fc.bigInt({ min: -(2n ** 66n), max: 2n ** 66n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
);

export interface LiteralShape {
  readonly value: bigint;
  readonly form: 'plain' | 'zero-fraction' | 'exponent' | 'scaled-down' | 'fraction';
  readonly split: number;
  readonly extraZeros: number;
  readonly upperE: boolean;
  readonly plusSign: boolean;
  readonly exponentPadding: number;
  readonly negativeZero: boolean;
  readonly fractionDigits: string;
}

/** Renders an integer as one of the many JSON literals that denote it (or a near-miss fraction). */
export function renderLiteral(s: LiteralShape): string {
  const sign = s.value < 0n || (s.value === 0n && s.negativeZero) ? '-' : '';
  const digits = (s.value < 0n ? -s.value : s.value).toString();
  const e = (n: number) =>
    `${s.upperE ? 'E' : 'e'}${n < 0 ? '-' : s.plusSign ? '+' : ''}${'0'.repeat(s.exponentPadding)}${Math.abs(n)}`;
  switch (s.form) {
    case 'plain':
      return sign + digits;
    case 'zero-fraction':
      return `${sign}${digits}.${'0'.repeat(s.extraZeros + 1)}`;
    case 'exponent': {
      // 9223372036854775807 → 9.223372036854775807e18 (plus optional trailing zeros).
      const k = 1 + (s.split % digits.length);
      const fraction = digits.slice(k) + '0'.repeat(s.extraZeros);
      return `${sign}${digits.slice(0, k)}${fraction ? `.${fraction}` : ''}${e(digits.length - k)}`;
    }
    case 'scaled-down':
      // 123 → 12300e-2 (an integer) or 123e-1 (a fraction unless it ends in 0).
      return `${sign}${digits}${'0'.repeat(s.extraZeros)}${e(-(s.split % (s.extraZeros + 3)))}`;
    case 'fraction':
      return `${sign}${digits}.${s.fractionDigits}`;
  }
}

export const literalShape: fc.Arbitrary<LiteralShape> = fc.record({
  value: boundaryInteger,
  form: fc.constantFrom('plain', 'zero-fraction', 'exponent', 'scaled-down', 'fraction'),
  split: fc.nat({ max: 40 }),
  extraZeros: fc.nat({ max: 6 }),
  upperE: fc.boolean(),
  plusSign: fc.boolean(),
  exponentPadding: fc.nat({ max: 3 }),
  negativeZero: fc.boolean(),
  fractionDigits: fc.stringMatching(/^[0-9]{0,5}[1-9]$/),
});

/** Any JSON number literal: arbitrary digits, fractions and exponents, some astronomically large. */
export const anyNumberLiteral: fc.Arbitrary<string> = fc
  .record({
    negative: fc.boolean(),
    whole: fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,24}$/)),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,24}$/), { nil: undefined }),
    exponent: fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.oneof(fc.stringMatching(/^[0-9]{1,3}$/), fc.stringMatching(/^[1-9][0-9]{9,20}$/)),
      ),
      { nil: undefined },
    ),
  })
  .map(
    ({ negative, whole, fraction, exponent }) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ? exponent.join('') : ''}`,
  );

/** Every integer literal of interest: boundary values in many spellings, and arbitrary literals. */
export const idLiteral: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: literalShape.map(renderLiteral) },
  { weight: 1, arbitrary: anyNumberLiteral },
);

/**
 * Integers spelled with many zeros that an exponent cancels (`5000…0e-3000`,
 * `0.000…05e3001`), including a million zeros: the exponent must be weighed against the
 * digits exactly, neither clamped nor expanded. Generated as a shape (a failure then prints
 * the shape, not a megabyte of zeros) and spelled by `renderScaled`.
 */
export interface ScaledShape {
  readonly value: bigint;
  readonly zeros: number;
  readonly delta: number;
  readonly leading: boolean;
}

export const scaledShape: fc.Arbitrary<ScaledShape> = fc.record({
  value: boundaryInteger,
  zeros: fc.oneof({ weight: 30, arbitrary: fc.nat({ max: 3_000 }) }, { weight: 1, arbitrary: fc.constant(1_000_001) }),
  delta: fc.integer({ min: -2, max: 2 }),
  leading: fc.boolean(),
});

/** Both spellings denote value × 10^delta (a fraction when delta < 0 and value does not end in zeros). */
export function renderScaled({ value, zeros, delta, leading }: ScaledShape): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString();
  return leading
    ? `${sign}0.${'0'.repeat(zeros)}${digits}e${zeros + digits.length + delta}`
    : `${sign}${digits}${'0'.repeat(zeros)}e${-(zeros - delta)}`;
}
