/**
 * Named edge cases for the text fields (name, tag). Astral characters are one code point
 * but two UTF-16 units, which is where a `.length` check goes wrong.
 */
export const CACTUS = '🌵'; // U+1F335
export const G_CLEF = '𝄞'; // U+1D11E

export const TextMother = {
  /** `count` code points of plain ASCII. */
  ascii: (count: number): string => 'a'.repeat(count),
  /** `count` code points, each an astral character (2 UTF-16 units). */
  astral: (count: number, character: string = CACTUS): string => character.repeat(count),

  empty: '',
  /** U+3000 IDEOGRAPHIC SPACE alone: Unicode White_Space, though not ASCII. */
  ideographicSpaceOnly: '\u3000',
  /** Only Unicode White_Space, none of it a control character. */
  mixedUnicodeWhiteSpace: ' \u00A0\u1680\u2000\u2007\u200A\u2028\u2029\u202F\u205F\u3000',
  /** U+FEFF ZERO WIDTH NO-BREAK SPACE is not White_Space in Unicode (JavaScript's \s says it is). */
  byteOrderMarkOnly: '\uFEFF',
  /** U+00A0 NO-BREAK SPACE between letters: a space, not a control character. */
  noBreakSpaceBetweenLetters: 'Monstera\u00A0deliciosa',
  /** Letters around one character; for control and surrogate cases. */
  around: (character: string): string => `Ficus${character}lyrata`,

  loneHighSurrogate: 'Aloe\uD83C',
  loneLowSurrogate: '\uDF35Aloe',
  /** Low then high: two units that look like a pair but are two lone surrogates. */
  reversedPair: 'Aloe\uDF35\uD83C',
  properPair: 'Aloe\uD83C\uDF35',
} as const;

/** The edges of each control range, and their neighbours that are allowed. */
export const CONTROL_CHARACTERS = ['\u0000', '\u001F', '\u007F', '\u009F'] as const;
export const CONTROL_NEIGHBOURS = ['\u0020', '\u007E', '\u00A0'] as const;

export function codePointLabel(text: string): string {
  return [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}
