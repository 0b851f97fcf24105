import { numberLiteral, readJsonObject } from '@plantstore/json-reader';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('readJsonObject', () => {
  it('reads an object losslessly: an int64 id keeps every digit', () => {
    const reading = readJsonObject(bytes('{"id": 9223372036854775807, "name": "Fern"}'), 'The request body');
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(numberLiteral(reading.object['id'])).toBe('9223372036854775807');
    expect(reading.object['name']).toBe('Fern');
    expect(reading.text).toBe('{"id": 9223372036854775807, "name": "Fern"}');
  });

  it('keeps the literal of a number as written (1.0 stays 1.0, 1e2 stays 1e2)', () => {
    const reading = readJsonObject(bytes('{"a": 1.0, "b": 1e2, "c": -0}'), 'The line');
    if (!reading.ok) throw new Error(reading.message);
    expect(['a', 'b', 'c'].map((key) => numberLiteral(reading.object[key]))).toEqual(['1.0', '1e2', '-0']);
  });

  it('keeps __proto__ as an ordinary own property, never a prototype', () => {
    const reading = readJsonObject(bytes('{"__proto__": {"name": "inherited"}}'), 'The line');
    if (!reading.ok) throw new Error(reading.message);
    expect(Object.hasOwn(reading.object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(reading.object)).toBe(Object.prototype);
    expect(Object.hasOwn(reading.object, 'name')).toBe(false);
  });

  it('drops a leading UTF-8 BOM', () => {
    const reading = readJsonObject(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{}')]), 'The line');
    expect(reading.ok).toBe(true);
  });

  it.each([
    ['', 'empty', 'The request body is empty; send a JSON object.'],
    [
      '{"id": 1,',
      'not-json',
      'The request body is not valid JSON: Expected double-quoted property name in JSON at position 9 (line 1 column 10).',
    ],
    ['{"a": 1, "a": 2}', 'not-json', "The request body is not valid JSON: Duplicate key 'a' with a different value."],
    ['[1]', 'not-an-object', 'The request body must be a JSON object, not an array.'],
    ['"plant"', 'not-an-object', 'The request body must be a JSON object, not a string.'],
    ['42', 'not-an-object', 'The request body must be a JSON object, not a number.'],
    ['null', 'not-an-object', 'The request body must be a JSON object, not null.'],
    ['true', 'not-an-object', 'The request body must be a JSON object, not a boolean.'],
  ])('refuses %j as %s, with the subject in the message', (text, problem, message) => {
    expect(readJsonObject(bytes(text), 'The request body')).toEqual({ ok: false, problem, message, text });
  });

  it('accepts a key repeated with the same value', () => {
    expect(readJsonObject(bytes('{"a": 1, "a": 1}'), 'The line').ok).toBe(true);
    expect(readJsonObject(bytes('{"a": {"x": 1, "y": [2]}, "a": {"y": [2], "x": 1}}'), 'The line').ok).toBe(true);
  });

  it.each([
    ['a nested object', '{"id": 1, "meta": {"k": "x", "k": "y"}}', 'k'],
    ['an object inside an array', '{"list": [{"k": 1}, {"k": 1, "k": 2}]}', 'k'],
    ['numbers of one value written differently', '{"id": 1, "id": 1.0}', 'id'],
    ['keys written with escapes', '{"id": 1, "\\u0069d": 2}', 'id'],
  ])('refuses a key repeated with a different value in %s', (_case, text, key) => {
    expect(readJsonObject(bytes(text), 'The line')).toMatchObject({
      ok: false,
      problem: 'not-json',
      message: `The line is not valid JSON: Duplicate key '${key}' with a different value.`,
    });
  });

  it('counts no members inside strings: colons, quotes and escapes there are text', () => {
    const reading = readJsonObject(bytes('{"a": "x: \\"y\\": z", "b": "\\\\", "c": ":"}'), 'The line');
    expect(reading).toMatchObject({ ok: true, object: { a: 'x: "y": z', b: '\\', c: ':' } });
  });

  it('reads a number beyond any double as its literal, without expanding it', () => {
    const reading = readJsonObject(bytes('{"id": 1e1000000000}'), 'The line');
    if (!reading.ok) throw new Error(reading.message);
    expect(numberLiteral(reading.object['id'])).toBe('1e1000000000');
  });

  it('gives the parser its words without a copy of the input', () => {
    expect(readJsonObject(bytes('{"token": pst_secret}'), 'The line')).toMatchObject({
      ok: false,
      message: "The line is not valid JSON: Unexpected token 'p'.",
    });
  });

  it('refuses bytes that are not UTF-8, and gives no text for them', () => {
    const reading = readJsonObject(Buffer.concat([bytes('{"name": "'), Buffer.from([0xff]), bytes('"}')]), 'The line');
    expect(reading).toEqual({
      ok: false,
      problem: 'not-utf8',
      message: 'The line is not valid UTF-8.',
      text: undefined,
    });
  });

  it('reads nesting as deep as a body can hold, without overflowing the stack', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(readJsonObject(bytes(deep), 'The line').ok).toBe(true);
  });

  it('refuses, without crashing, a repeated key whose differing values nest too deeply to compare', () => {
    const deep = (leaf: string) => '['.repeat(100_000) + leaf + ']'.repeat(100_000);
    const reading = readJsonObject(bytes(`{"a": ${deep('1')}, "a": ${deep('2')}}`), 'The line');
    expect(reading).toMatchObject({
      ok: false,
      problem: 'not-json',
      message: 'The line is not valid JSON: it is nested too deeply.',
    });
  });
});

describe('numberLiteral', () => {
  it('gives the text of a number read by readJsonObject and nothing for other values', () => {
    const reading = readJsonObject(bytes('{"n": 12.50, "s": "12.50", "b": true, "z": null}'), 'The line');
    if (!reading.ok) throw new Error(reading.message);
    expect(['n', 's', 'b', 'z', 'missing'].map((key) => numberLiteral(reading.object[key]))).toEqual([
      '12.50',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads strings exactly: long runs, escapes between them, and every kind of character around them', () => {
    const long = 'x'.repeat(200_000);
    const text = `{"a": "${long}", "b": "é\\n\\"q\\"\\u00e9${long}\\t", "c": "", "d": "🌿"}`;
    const reading = readJsonObject(bytes(text), 'The line');
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.object).toEqual({ a: long, b: `é\n"q"é${long}\t`, c: '', d: '🌿' });
    expect(JSON.parse(text)).toEqual(reading.object);
  });

  it.each([
    ['a raw line feed', '{"a": "x\ny"}'],
    ['a raw tab', '{"a": "x\ty"}'],
    ['a raw NUL after a long run', `{"a": "${'x'.repeat(5_000)}\u0000"}`],
    ['an unterminated string', `{"a": "${'x'.repeat(5_000)}`],
  ])('refuses %s inside a string', (_case, text) => {
    const reading = readJsonObject(bytes(text), 'The line');
    expect(reading).toMatchObject({ ok: false, problem: 'not-json' });
  });
});
