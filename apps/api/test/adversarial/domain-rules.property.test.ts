import fc from 'fast-check';
import { Plant, PlantId, PlantName, PlantTag } from '@plantstore/domain';
import { countCodePoints, textViolations } from '@plantstore/domain/testing';
import { boundaryInteger, hostileText, idLiteral, renderScaled, scaledShape } from './support/arbitraries.js';
import {
  idProblem,
  INT64_MAX,
  INT64_MIN,
  integerOfLiteral,
  NAME_MAX,
  RANGE_MESSAGE,
  TAG_MAX,
  textProblems,
} from './support/oracle.js';

/**
 * The domain's content rules (docs/http-api.md#newplant-rules) against the independent oracle in
 * support/oracle.ts, on random input built to sit on every boundary.
 */
const TEXT_RUNS = 1_000;
const ID_RUNS = 1_000;
const PLANT_RUNS = 500;
const SCALED_RUNS = 300;
const runs: Record<string, number> = {};

function check<T>(label: string, arbitrary: fc.Arbitrary<T>, numRuns: number, predicate: (value: T) => void): void {
  fc.assert(fc.property(arbitrary, predicate), { numRuns });
  runs[label] = numRuns;
}

describe('domain rules against an independent oracle (property-based)', () => {
  afterAll(() => {
    const total = Object.values(runs).reduce((a, b) => a + b, 0);
    console.log(
      `domain property runs: ${Object.entries(runs)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')} (total ${total})`,
    );
  });

  it('counts code points as Array.from does, for any string (astral, surrogates, controls)', () => {
    check('code points', hostileText, TEXT_RUNS, (text) => {
      expect(countCodePoints(text)).toBe(Array.from(text).length);
    });
  });

  it('name and tag report exactly the oracle problems for random text', () => {
    check(
      'name/tag text',
      fc.tuple(hostileText, fc.constantFrom(['name', NAME_MAX] as const, ['tag', TAG_MAX] as const)),
      TEXT_RUNS,
      ([text, [field, max]]) => {
        const expected = textProblems(field, text, max).map((message) => ({ field, message }));
        expect(textViolations(field, text, max)).toEqual(expected);
        const made = field === 'name' ? PlantName.create(text) : PlantTag.create(text);
        if (expected.length === 0) expect((made as PlantName | PlantTag).value).toBe(text);
        else expect(made).toEqual(expected);
      },
    );
  });

  it('every single code point U+0000..U+10FFFF (and each lone surrogate) as a one-character name', () => {
    const mismatches: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const text = String.fromCodePoint(cp);
      const actual = textViolations('name', text, NAME_MAX).map((v) => v.message);
      const expected = textProblems('name', text, NAME_MAX);
      if (actual.length !== expected.length || actual.some((m, i) => m !== expected[i])) {
        mismatches.push(
          `U+${cp.toString(16).toUpperCase().padStart(4, '0')}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`,
        );
      }
    }
    runs['single code points'] = 0x110000;
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('reads int64 literals exactly: any spelling of a boundary integer, fractions and huge exponents', () => {
    check('id literals', idLiteral, ID_RUNS, (literal) => {
      const expected = integerOfLiteral(literal);
      const inRange = expected !== undefined && expected >= INT64_MIN && expected <= INT64_MAX;
      const id = PlantId.fromLiteral(literal);
      if (inRange) {
        expect(id).toBeInstanceOf(PlantId);
        expect((id as PlantId).value).toBe(expected);
      } else {
        expect(id).toEqual({ field: 'id', message: RANGE_MESSAGE });
      }
    });
  });

  it('weighs exponents against long runs of zeros exactly (up to a million zeros)', () => {
    check('scaled id literals', scaledShape, SCALED_RUNS, (shape) => {
      const literal = renderScaled(shape);
      const expected = integerOfLiteral(literal);
      const id = PlantId.fromLiteral(literal);
      if (expected !== undefined && expected >= INT64_MIN && expected <= INT64_MAX)
        expect(id instanceof PlantId ? id.value : id).toBe(expected);
      else expect(id).toEqual({ field: 'id', message: RANGE_MESSAGE });
    });
  });

  it('keeps exactly the integers of [-2^63, 2^63-1] as ids, around every boundary', () => {
    check('id integers', boundaryInteger, ID_RUNS, (value) => {
      const id = PlantId.fromBigInt(value);
      if (value >= INT64_MIN && value <= INT64_MAX) expect((id as PlantId).value).toBe(value);
      else expect(id).toEqual({ field: 'id', message: RANGE_MESSAGE });
      const fromText = PlantId.fromLiteral(value.toString());
      expect(fromText instanceof PlantId ? fromText.value : fromText).toEqual(id instanceof PlantId ? value : id);
    });
  });

  it('Plant.parse accepts exactly the valid plants and lists every problem of every field, in order', () => {
    const input = fc.record({ id: idLiteral, name: hostileText, tag: fc.option(hostileText, { nil: undefined }) });
    check('Plant.parse', input, PLANT_RUNS, ({ id, name, tag }) => {
      const expected = [
        ...(idProblem(id) ? [{ field: 'id', message: RANGE_MESSAGE }] : []),
        ...textProblems('name', name, NAME_MAX).map((message) => ({ field: 'name', message })),
        ...(tag === undefined ? [] : textProblems('tag', tag, TAG_MAX).map((message) => ({ field: 'tag', message }))),
      ];
      const parsed = Plant.parse(tag === undefined ? { id, name } : { id, name, tag });
      if (expected.length > 0) {
        expect(parsed).toEqual({ ok: false, violations: expected });
        return;
      }
      if (!parsed.ok) throw new Error(`refused a valid plant: ${JSON.stringify(parsed.violations)}`);
      expect(parsed.plant.id.value).toBe(integerOfLiteral(id));
      expect(parsed.plant.name.value).toBe(name);
      expect(parsed.plant.tag?.value).toBe(tag);
    });
  });
});
