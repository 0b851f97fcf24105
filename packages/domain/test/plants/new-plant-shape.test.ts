import { NewPlantShape, Plant } from '@plantstore/domain';

// Values a source holds as numbers arrive as objects carrying their literal, as lossless JSON has them.
const numberLiteral = (value: unknown) => (value instanceof Number ? value.toString() : undefined);
const parseRecord = (fields: Record<string, unknown>) => Plant.parseRecord({ fields, numberLiteral });

describe('Plant.parseRecord: a plant from an untyped source', () => {
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
    const parsed = parseRecord(record);
    expect(parsed.ok ? [] : parsed.violations).toEqual(expected);
  });

  it('reports a shape violation beside the content violations of the other fields', () => {
    const parsed = parseRecord({ id: 'x', name: '', tag: 'ok' });
    expect(parsed.ok ? [] : parsed.violations.map((v) => v.message)).toEqual([
      'id must be a JSON number',
      expect.stringMatching(/^name /),
    ]);
  });

  it('reads only own properties, so inherited or prototype keys are not fields', () => {
    const record = Object.create({ name: 'inherited' }) as Record<string, unknown>;
    record['id'] = new Number(3);
    const parsed = parseRecord(record);
    expect(parsed.ok ? [] : parsed.violations).toEqual([NewPlantShape.nameRequired]);
  });

  it('passes well-typed fields through for the content rules', () => {
    const parsed = parseRecord({ id: new Number(42), name: 'Fern', tag: 'Polypodiales', extra: 1 });
    expect(parsed.ok && [parsed.plant.id.toString(), parsed.plant.name.value, parsed.plant.tag?.value]).toEqual([
      '42',
      'Fern',
      'Polypodiales',
    ]);
  });

  it('reads a replacement: no id is none, an id must denote the path id, every field reported together', () => {
    const id = Plant.parse({ id: '7', name: 'x' });
    if (!id.ok) throw new Error('test input is invalid');
    const replacement = (fields: Record<string, unknown>) =>
      Plant.parseReplacementRecord(id.plant.id, { fields, numberLiteral });
    expect(replacement({ name: 'Renamed' }).ok).toBe(true);
    expect(replacement({ id: new Number(7), name: 'Renamed' }).ok).toBe(true);
    const parsed = replacement({ id: null, name: 5, tag: 1 });
    expect(parsed.ok ? [] : parsed.violations).toEqual([
      NewPlantShape.idNotNumber,
      NewPlantShape.nameNotString,
      NewPlantShape.tagNotString,
    ]);
  });
});
