import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberLiteral, readJsonObject } from '@plantstore/json-reader';

/**
 * The parsing cases of JSONTestSuite (MIT; kept in fixtures/json-test-suite, see its SOURCE.md),
 * each read as a request body is. File names carry the verdict: a y_ file is JSON (an object is
 * read, any other value is valid JSON that is not an object), an n_ file is not (refused as
 * unreadable), an i_ file leaves the choice to the parser (this reader's choices are listed below).
 */
const CORPUS = fileURLToPath(new URL('fixtures/json-test-suite/', import.meta.url));
/** Every file of the upstream test_parsing folder: a lost file must fail the suite, not shrink it. */
const CORPUS_FILES = 318;
const SUBJECT = 'The body';

type Kind = 'y' | 'n' | 'i';
const files = readdirSync(CORPUS)
  .filter((file) => /^[nyi]_.*\.json$/.test(file))
  .sort();
const corpus = (kind: Kind): Array<[string, Buffer]> =>
  files.filter((file) => file.startsWith(`${kind}_`)).map((file) => [file, readFileSync(join(CORPUS, file))]);

type Verdict = 'an object' | 'an array' | 'not UTF-8';

/**
 * The reader's choice for every i_ file. Numbers beyond a double and escaped lone surrogates are
 * valid JSON to the runtime's parser (the domain's id and text rules refuse them afterwards, with
 * their own messages); bytes that are not UTF-8, UTF-16 included, are refused before parsing; a
 * leading UTF-8 BOM is dropped.
 */
const IMPLEMENTATION_DEFINED: Readonly<Record<string, Verdict>> = {
  'i_number_double_huge_neg_exp.json': 'an array',
  'i_number_huge_exp.json': 'an array',
  'i_number_neg_int_huge_exp.json': 'an array',
  'i_number_pos_double_huge_exp.json': 'an array',
  'i_number_real_neg_overflow.json': 'an array',
  'i_number_real_pos_overflow.json': 'an array',
  'i_number_real_underflow.json': 'an array',
  'i_number_too_big_neg_int.json': 'an array',
  'i_number_too_big_pos_int.json': 'an array',
  'i_number_very_big_negative_int.json': 'an array',
  'i_object_key_lone_2nd_surrogate.json': 'an object',
  'i_string_1st_surrogate_but_2nd_missing.json': 'an array',
  'i_string_1st_valid_surrogate_2nd_invalid.json': 'an array',
  'i_string_UTF-16LE_with_BOM.json': 'not UTF-8',
  'i_string_UTF-8_invalid_sequence.json': 'not UTF-8',
  'i_string_UTF8_surrogate_U+D800.json': 'not UTF-8',
  'i_string_incomplete_surrogate_and_escape_valid.json': 'an array',
  'i_string_incomplete_surrogate_pair.json': 'an array',
  'i_string_incomplete_surrogates_escape_valid.json': 'an array',
  'i_string_invalid_lonely_surrogate.json': 'an array',
  'i_string_invalid_surrogate.json': 'an array',
  'i_string_invalid_utf-8.json': 'not UTF-8',
  'i_string_inverted_surrogates_U+1D11E.json': 'an array',
  'i_string_iso_latin_1.json': 'not UTF-8',
  'i_string_lone_second_surrogate.json': 'an array',
  'i_string_lone_utf8_continuation_byte.json': 'not UTF-8',
  'i_string_not_in_unicode_range.json': 'not UTF-8',
  'i_string_overlong_sequence_2_bytes.json': 'not UTF-8',
  'i_string_overlong_sequence_6_bytes.json': 'not UTF-8',
  'i_string_overlong_sequence_6_bytes_null.json': 'not UTF-8',
  'i_string_truncated-utf-8.json': 'not UTF-8',
  'i_string_utf16BE_no_BOM.json': 'not UTF-8',
  'i_string_utf16LE_no_BOM.json': 'not UTF-8',
  'i_structure_500_nested_arrays.json': 'an array',
  'i_structure_UTF-8_BOM_empty_object.json': 'an object',
};

/** The one y_ file the contract refuses: a key repeated with a different value (docs/http-api.md). */
const REFUSED_Y = 'y_object_duplicated_key.json';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
function isUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The text the reader works on: the bytes as UTF-8, a leading BOM dropped. */
const textOf = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '');

/** The type of a valid JSON text, told by its first character after JSON white space. */
function typeOfJson(text: string): string {
  const first = text.replace(/^[ \t\n\r]+/, '')[0];
  if (first === '{') return 'an object';
  if (first === '[') return 'an array';
  if (first === '"') return 'a string';
  if (first === 't' || first === 'f') return 'a boolean';
  if (first === 'n') return 'null';
  return 'a number';
}

/** An object reading must hold what the text holds: every number member as its literal, other members as parsed. */
function expectObjectOf(bytes: Buffer, file: string): void {
  const reading = readJsonObject(bytes, SUBJECT);
  if (!reading.ok) throw new Error(`${file}: refused: ${reading.message}`);
  const text = textOf(bytes);
  const read = Object.entries(reading.object).map(([key, value]) => {
    const literal = numberLiteral(value);
    return [key, literal === undefined ? value : Number(literal)];
  });
  expect({ file, text: reading.text, members: read }).toEqual({
    file,
    text,
    members: Object.entries(JSON.parse(text) as object),
  });
}

describe('the JSONTestSuite corpus through readJsonObject', () => {
  it('holds every file of the upstream folder, of the three kinds', () => {
    expect(files).toHaveLength(CORPUS_FILES);
    for (const kind of ['y', 'n', 'i'] as const) expect(corpus(kind).length).toBeGreaterThan(0);
    expect(corpus('i').map(([file]) => file)).toEqual(Object.keys(IMPLEMENTATION_DEFINED).sort());
  });

  it.each(corpus('y').filter(([file]) => file !== REFUSED_Y))(
    '%s is JSON: read as an object, or refused as valid JSON that is not one',
    (file, bytes) => {
      const text = textOf(bytes);
      const type = typeOfJson(text);
      if (type === 'an object') return expectObjectOf(bytes, file);
      expect({ file, reading: readJsonObject(bytes, SUBJECT) }).toEqual({
        file,
        reading: { ok: false, problem: 'not-an-object', message: `The body must be a JSON object, not ${type}.`, text },
      });
    },
  );

  it(`${REFUSED_Y} is refused as the contract says: a key repeated with a different value`, () => {
    const bytes = readFileSync(join(CORPUS, REFUSED_Y));
    expect(readJsonObject(bytes, SUBJECT)).toEqual({
      ok: false,
      problem: 'not-json',
      message: "The body is not valid JSON: Duplicate key 'a' with a different value.",
      text: textOf(bytes),
    });
  });

  it.each(corpus('n'))('%s is refused as unreadable, never as valid JSON of another type', (file, bytes) => {
    const reading = readJsonObject(bytes, SUBJECT);
    const expected =
      bytes.length === 0
        ? { problem: 'empty', message: 'The body is empty; send a JSON object.', text: '' }
        : !isUtf8(bytes)
          ? { problem: 'not-utf8', message: 'The body is not valid UTF-8.', text: undefined }
          : {
              problem: 'not-json',
              message: expect.stringMatching(/^The body is not valid JSON: .+\.$/),
              text: textOf(bytes),
            };
    expect({ file, reading }).toEqual({ file, reading: { ok: false, ...expected } });
  });

  it.each(corpus('i'))('%s is read as this reader chose', (file, bytes) => {
    const verdict = IMPLEMENTATION_DEFINED[file];
    if (verdict === 'an object') return expectObjectOf(bytes, file);
    const expected =
      verdict === 'not UTF-8'
        ? { problem: 'not-utf8', message: 'The body is not valid UTF-8.', text: undefined }
        : {
            problem: 'not-an-object',
            message: 'The body must be a JSON object, not an array.',
            text: textOf(bytes),
          };
    expect({ file, reading: readJsonObject(bytes, SUBJECT) }).toEqual({ file, reading: { ok: false, ...expected } });
  });
});
