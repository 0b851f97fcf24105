import { PlantName, PlantTag, type FieldViolation } from '@plantstore/domain';
import {
  CACTUS,
  CONTROL_CHARACTERS,
  CONTROL_NEIGHBOURS,
  G_CLEF,
  TextMother,
  codePointLabel,
} from '../mothers/text-mother.js';

/** name and tag share one rule with different limits: the same cases run against both. */
const fields = [
  { field: 'name', max: 200, create: (text: string) => PlantName.create(text) },
  { field: 'tag', max: 64, create: (text: string) => PlantTag.create(text) },
] as const;

describe.each(fields)('$field (1 to $max code points)', ({ field, max, create }) => {
  function acceptedValue(text: string): string {
    const result = create(text);
    if (Array.isArray(result)) throw new Error(`expected acceptance, got: ${result.map((v) => v.message).join('; ')}`);
    return result.value;
  }

  function violations(text: string): readonly FieldViolation[] {
    const result = create(text);
    if (!Array.isArray(result)) throw new Error(`expected ${codePointLabel(text)} to be rejected`);
    return result;
  }

  describe('length in code points', () => {
    it(`accepts exactly ${max} ASCII characters`, () => {
      expect(acceptedValue(TextMother.ascii(max))).toHaveLength(max);
    });

    it(`rejects ${max + 1} ASCII characters, naming the field and the limit`, () => {
      const [violation, ...others] = violations(TextMother.ascii(max + 1));
      expect(others).toEqual([]);
      expect(violation?.field).toBe(field);
      expect(violation?.message).toContain(`1 to ${max}`);
    });

    it.each([CACTUS, G_CLEF])(`accepts ${max} astral characters (%s), ${2 * max} UTF-16 units`, (character) => {
      const text = TextMother.astral(max, character);
      expect(text.length).toBe(2 * max);
      expect(acceptedValue(text)).toBe(text);
    });

    it(`rejects ${max + 1} astral characters, reporting the count in code points, not UTF-16 units`, () => {
      const found = violations(TextMother.astral(max + 1));
      expect(found.map((v) => v.field)).toEqual([field]);
      expect(found[0]?.message).toContain(`(got ${max + 1})`);
    });

    it(`counts a mix of ASCII and astral per code point (${max - 1} + 1 astral is accepted)`, () => {
      expect(acceptedValue(TextMother.ascii(max - 1) + G_CLEF)).toHaveLength(max + 1);
      expect(violations(TextMother.ascii(max) + G_CLEF)).toHaveLength(1);
    });

    it('rejects the empty string', () => {
      const found = violations(TextMother.empty);
      expect(found).toHaveLength(1);
      expect(found[0]?.field).toBe(field);
    });
  });

  describe('white space', () => {
    it.each([
      ['a single space', ' '],
      ['U+3000 IDEOGRAPHIC SPACE alone', TextMother.ideographicSpaceOnly],
      ['mixed Unicode White_Space', TextMother.mixedUnicodeWhiteSpace],
    ])('rejects %s', (_label, text) => {
      const found = violations(text);
      expect(found).toHaveLength(1);
      expect(found[0]?.field).toBe(field);
      expect(found[0]?.message).toMatch(/white space/);
    });

    it('accepts U+FEFF alone: it is not Unicode White_Space', () => {
      expect(acceptedValue(TextMother.byteOrderMarkOnly)).toBe('\uFEFF');
    });

    it('keeps surrounding white space as sent (no trimming)', () => {
      expect(acceptedValue('  Aloe vera\u3000')).toBe('  Aloe vera\u3000');
    });

    it('keeps the text unnormalised: composed and decomposed é stay distinct', () => {
      expect(acceptedValue('Caf\u00E9')).toBe('Caf\u00E9');
      expect(acceptedValue('Cafe\u0301')).toBe('Cafe\u0301');
    });
  });

  describe('control characters', () => {
    it.each(CONTROL_CHARACTERS.map((c) => [codePointLabel(c), c]))(
      'rejects %s between letters',
      (_label, character) => {
        const found = violations(TextMother.around(character));
        expect(found).toHaveLength(1);
        expect(found[0]?.field).toBe(field);
        expect(found[0]?.message).toMatch(/control characters/);
      },
    );

    it.each(CONTROL_NEIGHBOURS.map((c) => [codePointLabel(c), c]))(
      'accepts %s between letters',
      (_label, character) => {
        expect(acceptedValue(TextMother.around(character))).toBe(TextMother.around(character));
      },
    );

    it('accepts U+00A0 NO-BREAK SPACE in text with letters', () => {
      expect(acceptedValue(TextMother.noBreakSpaceBetweenLetters)).toBe(TextMother.noBreakSpaceBetweenLetters);
    });

    it('reports a tab-only value as both white space and a control character', () => {
      expect(violations('\t').map((v) => v.message)).toEqual([
        expect.stringMatching(/white space/),
        expect.stringMatching(/control characters/),
      ]);
    });
  });

  describe('surrogates', () => {
    it.each([
      ['a lone high surrogate at the end', TextMother.loneHighSurrogate],
      ['a lone low surrogate at the start', TextMother.loneLowSurrogate],
      ['a low surrogate followed by a high one', TextMother.reversedPair],
      ['a lone high surrogate alone', '\uD800'],
      ['a lone low surrogate alone', '\uDFFF'],
    ])('rejects %s', (_label, text) => {
      const found = violations(text);
      expect(found).toHaveLength(1);
      expect(found[0]?.field).toBe(field);
      expect(found[0]?.message).toMatch(/surrogate/);
    });

    it('accepts a proper surrogate pair', () => {
      expect(acceptedValue(TextMother.properPair)).toBe(TextMother.properPair);
    });
  });

  it('reports every problem of one value together', () => {
    const found = violations(`${TextMother.ascii(max + 1)}\u0000\uD800`);
    expect(found.map((v) => v.field)).toEqual([field, field, field]);
    expect(found.map((v) => v.message)).toEqual([
      expect.stringContaining(`1 to ${max}`),
      expect.stringMatching(/control characters/),
      expect.stringMatching(/surrogate/),
    ]);
  });

  it('starts every message with the field name, so a combined message stays readable', () => {
    for (const text of ['', ' ', 'a\u0000', 'a\uDC00', TextMother.ascii(max + 1)]) {
      for (const violation of violations(text)) expect(violation.message.startsWith(`${field} `)).toBe(true);
    }
  });
});
