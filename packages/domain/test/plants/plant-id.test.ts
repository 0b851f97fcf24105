import { Plant, PlantId, type FieldViolation } from '@plantstore/domain';

const PLANT_ID_RANGE_MESSAGE = 'id must be an integer between -9223372036854775808 and 9223372036854775807';

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

function accepted(literal: string): PlantId {
  const id = PlantId.fromLiteral(literal);
  if (!(id instanceof PlantId)) throw new Error(`expected ${literal} to be accepted, got: ${id.message}`);
  return id;
}

function violationOf(literal: string): FieldViolation {
  const id = PlantId.fromLiteral(literal);
  if (id instanceof PlantId) throw new Error(`expected ${literal} to be rejected, got ${id.value}`);
  return id;
}

describe('PlantId.fromLiteral: the int64 range', () => {
  it.each([
    ['9223372036854775807', INT64_MAX],
    ['-9223372036854775808', INT64_MIN],
    ['0', 0n],
    ['9223372036854775806', INT64_MAX - 1n],
  ])('accepts %s with its exact value', (literal, value) => {
    expect(accepted(literal).value).toBe(value);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '18446744073709551616', '99999999999999999999'])(
    'rejects %s, one past the range or further, naming the id field and the range',
    (literal) => {
      expect(violationOf(literal)).toEqual({ field: 'id', message: PLANT_ID_RANGE_MESSAGE });
    },
  );

  it('keeps 9007199254740993 exactly, where a float would round it to ...992', () => {
    const id = accepted('9007199254740993');
    expect(id.value).toBe(9007199254740993n);
    expect(id.toString()).toBe('9007199254740993');
    expect(id.equals(accepted('9007199254740992'))).toBe(false);
  });
});

describe('PlantId.fromLiteral: literals that denote an integer', () => {
  it.each([
    ['1.0', 1n],
    ['1e2', 100n],
    ['1E+2', 100n],
    ['1e+2', 100n],
    ['-0', 0n],
    ['-0.0', 0n],
    ['0e1000000000', 0n],
    ['100e-2', 1n],
    ['12.340e3', 12340n],
    ['0.0000000001e10', 1n],
    ['9.223372036854775807e18', INT64_MAX],
    ['-9.223372036854775808E18', INT64_MIN],
  ])('accepts %s as %s', (literal, value) => {
    expect(accepted(literal).value).toBe(value);
  });

  it('prints -0 as 0: an id has no negative zero', () => {
    expect(accepted('-0').toString()).toBe('0');
  });

  it('rejects 9.223372036854775808e18, the maximum plus one written with an exponent', () => {
    expect(violationOf('9.223372036854775808e18').field).toBe('id');
  });
});

describe('PlantId.fromLiteral: fractions and huge exponents', () => {
  it.each([
    '1.5',
    '1e-1',
    '0.1',
    '1e19',
    '10000000000000000000',
    '-1e19',
    '1e1000000000',
    '-1e1000000000',
    '1e-1000000000',
  ])('rejects %s', (literal) => {
    expect(violationOf(literal)).toEqual({ field: 'id', message: PLANT_ID_RANGE_MESSAGE });
  });

  it('rejects huge exponents (expanding 10^(10^400) could never finish, so this returning at all shows it is not expanded)', () => {
    for (const literal of ['1e1000000000', '-1e1000000000', '9e999999999999', `1e${'9'.repeat(400)}`]) {
      expect(violationOf(literal)).toEqual({ field: 'id', message: PLANT_ID_RANGE_MESSAGE });
    }
  });

  it('weighs a long fraction against a large exponent exactly: both literals below denote 1', () => {
    const tinyFractionBigExponent = `0.${'0'.repeat(1_000_001)}1e1000002`;
    const manyZerosNegativeExponent = `1${'0'.repeat(2_000_000)}e-2000000`;
    expect(PlantId.fromLiteral(tinyFractionBigExponent)).toEqual(PlantId.fromBigInt(1n));
    expect(PlantId.fromLiteral(manyZerosNegativeExponent)).toEqual(PlantId.fromBigInt(1n));
  });
});

describe('PlantId.fromLiteral: text that is not a JSON number', () => {
  it.each([
    ['01', 'leading zero'],
    ['+1', 'plus sign'],
    ['0x10', 'hexadecimal'],
    ['', 'empty'],
    [' 1', 'leading space'],
    ['1 ', 'trailing space'],
    ['1.', 'dot without digits'],
    ['.5', 'no integer part'],
    ['1e', 'exponent without digits'],
    ['-', 'sign alone'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['1_000', 'digit separator'],
    ['١', 'Arabic-Indic digit one'],
    ['"1"', 'a JSON string'],
  ])('rejects %j (%s)', (literal) => {
    expect(violationOf(literal).field).toBe('id');
  });
});

describe('PlantId.fromBigInt and fromStored', () => {
  it('accepts the int64 bounds and rejects one past each', () => {
    expect(PlantId.fromBigInt(INT64_MAX)).toBeInstanceOf(PlantId);
    expect(PlantId.fromBigInt(INT64_MIN)).toBeInstanceOf(PlantId);
    expect(PlantId.fromBigInt(INT64_MAX + 1n)).toEqual({ field: 'id', message: PLANT_ID_RANGE_MESSAGE });
    expect(PlantId.fromBigInt(INT64_MIN - 1n)).toEqual({ field: 'id', message: PLANT_ID_RANGE_MESSAGE });
  });

  it('reads the decimal text an adapter hands back, exactly', () => {
    expect(PlantId.fromStored('-9223372036854775808').value).toBe(INT64_MIN);
    expect(PlantId.fromStored(9007199254740993n).toString()).toBe('9007199254740993');
  });

  it('refuses a stored value outside int64 loudly instead of wrapping it', () => {
    expect(() => PlantId.fromStored('9223372036854775808')).toThrow(RangeError);
  });

  it('compares by value', () => {
    expect(accepted('1e2').equals(accepted('100'))).toBe(true);
    expect(accepted('100').equals(accepted('-100'))).toBe(false);
  });
});

describe('PlantId from plain JavaScript: a Number id only when it is a safe integer', () => {
  const unsafe = {
    field: 'id',
    message:
      'id is a JavaScript number that is not a safe integer, so its digits may already be lost: pass a string or bigint',
  };
  // What a caller without TypeScript can pass: the types say string or bigint, the language allows anything.
  const untyped = (value: unknown) => value as string & bigint;

  it.each([
    // The literal 9007199254740993 is already this Number: the language rounds it on reading.
    ['9007199254740993 (already rounded to ...992 by the language)', Number('9007199254740993')],
    ['2 ** 60 (whose text would show digits the Number never had)', 2 ** 60],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s at every entry, naming id: pass a string or bigint', (_name, value) => {
    expect(PlantId.fromLiteral(untyped(value))).toEqual(unsafe);
    expect(PlantId.fromBigInt(untyped(value))).toEqual(unsafe);
    expect(Plant.parse({ id: untyped(value), name: 'Monstera' })).toEqual({ ok: false, violations: [unsafe] });
    expect(() => PlantId.fromStored(untyped(value))).toThrow(RangeError);
  });

  it.each([0, 42, -7, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])(
    'accepts the safe integer %d exactly',
    (value) => {
      const parsed = Plant.parse({ id: untyped(value), name: 'Monstera' });
      expect(parsed.ok && parsed.plant.id.value).toBe(BigInt(value));
    },
  );
});
