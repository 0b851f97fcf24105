import { Plant, PlantValidationError } from '@plantstore/domain';
import { readJsonObject } from '@plantstore/json-reader';
import { NewPlantPipe } from '../../src/plants/create/new-plant.pipe.js';

const RANGE = 'id must be an integer between -9223372036854775808 and 9223372036854775807';

/** The body as the JSON pipe hands it over, through the NewPlant pipe: its plant, or its problems. */
function check(body: string): Plant | string {
  const reading = readJsonObject(Buffer.from(body), 'The request body');
  if (!reading.ok) throw new Error(`test body is not a JSON object: ${body}`);
  try {
    return new NewPlantPipe().transform(reading.object);
  } catch (error) {
    if (error instanceof PlantValidationError) return error.message;
    throw error;
  }
}

// The domain reads the body (Plant.parseRecord): presence and JSON types, then content; every problem reported in field order.
describe('the NewPlant pipe', () => {
  it.each([
    ['{}', 'id is required; name is required'],
    ['{"id": "1", "name": "a"}', 'id must be a JSON number'],
    ['{"id": null, "name": "a"}', 'id is required'],
    ['{"id": 1.5, "name": "a"}', RANGE],
    ['{"id": 9223372036854775808, "name": "a"}', RANGE],
    ['{"id": 1, "name": 5}', 'name must be a string'],
    ['{"id": 1, "name": "\\u3000"}', 'name must not be only white space'],
    ['{"id": 1, "name": "a", "tag": null}', 'tag must be a string if present; omit it for no tag'],
    [
      '{"id": true, "name": "", "tag": 7}',
      'id must be a JSON number; name must be 1 to 200 characters long (got 0); tag must be a string if present; omit it for no tag',
    ],
  ])('reports %s as: %s', (body, problems) => {
    expect(check(body)).toBe(`The plant is invalid: ${problems}.`);
  });

  it('keeps the id exactly as written: no detour through Number', () => {
    const plant = check('{"id": 9007199254740993, "name": "Fern", "tag": "x"}') as Plant;
    expect(plant.id.toString()).toBe('9007199254740993');
    expect([plant.name.value, plant.tag?.value]).toEqual(['Fern', 'x']);
  });

  it('reads any literal of an integer as that integer, and ignores other fields', () => {
    const plant = check('{"id": 1e2, "name": "Fern", "extra": [1], "__proto__": {"name": "x"}}') as Plant;
    expect(plant.id.toString()).toBe('100');
    expect(plant.tag).toBeUndefined();
  });
});
