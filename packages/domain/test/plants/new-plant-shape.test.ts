import { checkNewPlantShape, NewPlantShape, Plant } from '@plantstore/domain';

// Values a source holds as numbers arrive as objects carrying their literal, as lossless JSON has them.
const numberLiteral = (value: unknown) => (value instanceof Number ? value.toString() : undefined);

describe('checkNewPlantShape', () => {
  it.each([
    [{ name: 'a' }, [NewPlantShape.idRequired]],
    [{ id: null, name: 'a' }, [NewPlantShape.idRequired]],
    [{ id: '1', name: 'a' }, [NewPlantShape.idNotNumber]],
    [{ id: new Number(1) }, [NewPlantShape.nameRequired]],
    [{ id: new Number(1), name: null }, [NewPlantShape.nameRequired]],
    [{ id: new Number(1), name: 5 }, [NewPlantShape.nameNotString]],
    [{ id: new Number(1), name: 'a', tag: null }, [NewPlantShape.tagNotString]],
    [
      { id: true, name: [], tag: {} },
      [NewPlantShape.idNotNumber, NewPlantShape.nameNotString, NewPlantShape.tagNotString],
    ],
  ])('%j breaks the shape rules %j', (record, expected) => {
    const parsed = Plant.parse(checkNewPlantShape(record, numberLiteral));
    expect(parsed.ok ? [] : parsed.violations).toEqual(expected);
  });

  it('reports a shape violation beside the content violations of the other fields', () => {
    const parsed = Plant.parse(checkNewPlantShape({ id: 'x', name: '', tag: 'ok' }, numberLiteral));
    expect(parsed.ok ? [] : parsed.violations.map((v) => v.message)).toEqual([
      'id must be a JSON number',
      expect.stringMatching(/^name /),
    ]);
  });

  it('reads only own properties, so inherited or prototype keys are not fields', () => {
    const record = Object.create({ name: 'inherited' }) as Record<string, unknown>;
    record['id'] = new Number(3);
    expect(checkNewPlantShape(record, numberLiteral).name).toBe(NewPlantShape.nameRequired);
  });

  it('passes well-typed fields through for the content rules', () => {
    const parsed = Plant.parse(
      checkNewPlantShape({ id: new Number(42), name: 'Fern', tag: 'Polypodiales', extra: 1 }, numberLiteral),
    );
    expect(parsed.ok && [parsed.plant.id.toString(), parsed.plant.name.value, parsed.plant.tag?.value]).toEqual([
      '42',
      'Fern',
      'Polypodiales',
    ]);
  });
});
