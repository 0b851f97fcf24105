import { Plant, PlantId, PlantValidationError } from '@plantstore/domain';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';
import { TextMother } from '../mothers/text-mother.js';

describe('Plant.parse', () => {
  it('builds a plant from valid input, keeping each field exactly', () => {
    const parsed = Plant.parse(
      PlantInputMother.withTag(' Araceae ', { id: '9007199254740993', name: 'Monstera\u00A0🌵' }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.plant.id.value).toBe(9007199254740993n);
    expect(parsed.plant.name.value).toBe('Monstera\u00A0🌵');
    expect(parsed.plant.tag?.value).toBe(' Araceae ');
  });

  it('treats an absent tag and an undefined tag alike: no tag', () => {
    expect(validPlant(PlantInputMother.valid()).tag).toBeUndefined();
    expect(validPlant({ ...PlantInputMother.valid(), tag: undefined }).tag).toBeUndefined();
  });

  it('takes a bigint id as well as the literal text', () => {
    expect(validPlant(PlantInputMother.valid({ id: -9223372036854775808n })).id.value).toBe(-9223372036854775808n);
    expect(Plant.parse(PlantInputMother.valid({ id: 9223372036854775808n })).ok).toBe(false);
  });

  it('rejects an empty tag: when a tag is sent it follows the rules', () => {
    const parsed = Plant.parse(PlantInputMother.withTag(''));
    expect(parsed.ok ? [] : parsed.violations.map((v) => v.field)).toEqual(['tag']);
  });

  it('reports the violations of every field together, each naming its field', () => {
    const parsed = Plant.parse(PlantInputMother.invalidEverywhere());
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.violations.map((v) => v.field)).toEqual(['id', 'name', 'tag']);
    for (const violation of parsed.violations) expect(violation.message).toMatch(new RegExp(`^${violation.field} `));
  });

  it('reports several violations of one field next to those of another', () => {
    const parsed = Plant.parse({ id: '1', name: `${TextMother.ascii(201)}\u0007`, tag: TextMother.loneLowSurrogate });
    expect(parsed.ok ? [] : parsed.violations.map((v) => v.field)).toEqual(['name', 'name', 'tag']);
  });

  it('joins all messages into the error a caller sees', () => {
    const parsed = Plant.parse(PlantInputMother.invalidEverywhere());
    if (parsed.ok) throw new Error('expected violations');
    const error = new PlantValidationError(parsed.violations);
    expect(error.code).toBe('PLANT_INVALID');
    expect(error.message).toBe(`The plant is invalid: ${parsed.violations.map((v) => v.message).join('; ')}.`);
  });
});

describe('Plant.hasSameContentAs', () => {
  const base = PlantInputMother.withTag('Araceae');

  it('is true for the same name and tag, and for two absent tags', () => {
    expect(validPlant(base).hasSameContentAs(validPlant({ ...base }))).toBe(true);
    expect(validPlant(PlantInputMother.valid()).hasSameContentAs(validPlant(PlantInputMother.valid()))).toBe(true);
  });

  it.each([
    ['another name', { ...base, name: 'Monstera adansonii' }],
    ['another tag', { ...base, tag: 'Cactaceae' }],
    ['no tag', PlantInputMother.valid()],
    ['a name differing only in trailing space', { ...base, name: `${base.name} ` }],
    ['a name differing only in Unicode normalisation', { ...base, name: 'Monstera de\u0301liciosa' }],
    ['the tag in another case', { ...base, tag: 'araceae' }],
  ])('is false against %s', (_label, other) => {
    expect(validPlant(base).hasSameContentAs(validPlant(other))).toBe(false);
  });
});

describe('Plant.toJSON: the plain, serialisable form', () => {
  it('gives the id as exact decimal text, and the name and tag as stored', () => {
    const plant = validPlant(PlantInputMother.withTag('Araceae', { id: '9007199254740993', name: 'Monstera\u00A0🌵' }));
    expect(plant.toJSON()).toEqual({ id: '9007199254740993', name: 'Monstera\u00A0🌵', tag: 'Araceae' });
    expect(JSON.parse(JSON.stringify(plant))).toEqual({
      id: '9007199254740993',
      name: 'Monstera\u00A0🌵',
      tag: 'Araceae',
    });
  });

  it('leaves the tag out when there is none, and keeps the int64 ends exact', () => {
    expect(JSON.stringify(validPlant(PlantInputMother.valid({ id: PlantId.MIN })))).toBe(
      '{"id":"-9223372036854775808","name":"Monstera deliciosa"}',
    );
    expect(JSON.stringify({ id: validPlant(PlantInputMother.valid({ id: PlantId.MAX })).id })).toBe(
      '{"id":"9223372036854775807"}',
    );
  });

  it('reads back through Plant.parse as the same plant', () => {
    const plant = validPlant(PlantInputMother.withTag(' Araceae ', { id: '-42' }));
    const again = Plant.parse(JSON.parse(JSON.stringify(plant)));
    expect(again.ok && again.plant.hasSameContentAs(plant)).toBe(true);
  });
});

describe('Plant.toJsonText: one JSON object with the id as an exact JSON number', () => {
  it('writes every digit of an id past 2^53, and the name and tag as JSON strings', () => {
    const plant = validPlant(
      PlantInputMother.withTag('"quoted"', { id: '9007199254740993', name: 'Monstera\u00A0🌵' }),
    );
    expect(plant.toJsonText()).toBe('{"id":9007199254740993,"name":"Monstera\u00A0🌵","tag":"\\"quoted\\""}');
  });

  it('leaves the tag out when there is none, and keeps the int64 ends exact', () => {
    expect(validPlant(PlantInputMother.valid({ id: PlantId.MIN })).toJsonText()).toBe(
      '{"id":-9223372036854775808,"name":"Monstera deliciosa"}',
    );
  });

  it('is read back by JSON.parse with the same name and tag', () => {
    const plant = validPlant(PlantInputMother.withTag('back\\slash "q"', { id: '7', name: 'line\u2028separator' }));
    expect(JSON.parse(plant.toJsonText())).toEqual({ id: 7, name: 'line\u2028separator', tag: 'back\\slash "q"' });
  });
});

describe('Plant.fromStored', () => {
  it('reads a NULL tag as no tag', () => {
    const plant = Plant.fromStored(PlantId.fromStored('42'), 'Aloe', null);
    expect(plant.tag).toBeUndefined();
    expect(plant.hasSameContentAs(validPlant({ id: '42', name: 'Aloe' }))).toBe(true);
  });

  it('refuses a stored row that breaks the rules instead of serving it', () => {
    expect(() => Plant.fromStored(PlantId.fromStored('1'), '', null)).toThrow(RangeError);
  });
});

describe('Plant.parseReplacement: new content for a plant whose id the caller already knows', () => {
  const id = validPlant(PlantInputMother.valid({ id: '9007199254740993' })).id;

  it('takes the name and tag under the plant rules, with the id it was given', () => {
    const parsed = Plant.parseReplacement(id, { name: 'Renamed', tag: 'x' });
    expect(parsed.ok && parsed.plant.toJSON()).toEqual({ id: '9007199254740993', name: 'Renamed', tag: 'x' });
  });

  it('allows an id in the content only when it denotes the same id, in any literal', () => {
    expect(Plant.parseReplacement(id, { id: '9007199254740993.0', name: 'a' }).ok).toBe(true);
    expect(Plant.parseReplacement(id, { id: 9007199254740993n, name: 'a' }).ok).toBe(true);
  });

  it('reports another id beside every other problem, in field order', () => {
    const parsed = Plant.parseReplacement(id, { id: '7', name: '', tag: 'fern\u0000' });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.violations.map((v) => v.message)).toEqual([
      'id must be 9007199254740993, the id in the path, or be left out',
      'name must be 1 to 200 characters long (got 0)',
      'tag must not contain control characters (U+0000-U+001F, U+007F-U+009F)',
    ]);
  });

  it('reports an id that is no id by its own rule', () => {
    const parsed = Plant.parseReplacement(id, { id: '1.5', name: 'a' });
    expect(!parsed.ok && parsed.violations.map((v) => v.field)).toEqual(['id']);
    expect(!parsed.ok && parsed.violations[0]!.message).toMatch(/^id must be an integer between/);
  });
});
