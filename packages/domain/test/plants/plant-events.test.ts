import { PlantCreated, PlantDeleted, PlantId, PlantUpdated, plantEventFromJSON } from '@plantstore/domain';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

const EVENT_ID = '0f8e2c4a-7b1d-4e9f-a2c3-5d6e7f8a9b0c';
const AT = new Date('2025-06-02T12:00:00.000Z');
const plant = validPlant(PlantInputMother.valid({ id: '9007199254740993', name: 'Renamed' }));

describe('plant events: every event carries the version it made', () => {
  it('writes PlantCreated as version 1', () => {
    const created = PlantCreated.of(EVENT_ID, plant, AT);
    expect(created.toJSON()).toMatchObject({ type: 'PlantCreated', plantId: '9007199254740993', version: 1 });
  });

  it('writes PlantUpdated with the plant as it now is, and reads it back under the rules', () => {
    const updated = PlantUpdated.of(EVENT_ID, plant, 3, AT);
    const json = JSON.parse(JSON.stringify(updated)) as unknown;
    expect(json).toEqual({
      type: 'PlantUpdated',
      eventId: EVENT_ID,
      plantId: '9007199254740993',
      version: 3,
      name: 'Renamed',
      updatedAt: '2025-06-02T12:00:00.000Z',
    });
    const again = plantEventFromJSON(json);
    expect(again).toBeInstanceOf(PlantUpdated);
    expect((again as PlantUpdated).plant.hasSameContentAs(plant)).toBe(true);
  });

  it('writes PlantDeleted with the id and the last version, and reads it back', () => {
    const deleted = PlantDeleted.of(EVENT_ID, plant.id, 4, AT);
    const json = JSON.parse(JSON.stringify(deleted)) as unknown;
    expect(json).toEqual({
      type: 'PlantDeleted',
      eventId: EVENT_ID,
      plantId: '9007199254740993',
      version: 4,
      deletedAt: '2025-06-02T12:00:00.000Z',
    });
    const again = plantEventFromJSON(json) as PlantDeleted;
    expect(again.plantId.equals(plant.id)).toBe(true);
    expect(again.version).toBe(4);
  });

  it('reads a PlantCreated without a version (written before versions) as version 1, and refuses another', () => {
    const json = { type: 'PlantCreated', eventId: EVENT_ID, plantId: '1', name: 'Fern', createdAt: AT.toISOString() };
    expect(plantEventFromJSON(json).version).toBe(1);
    expect(() => plantEventFromJSON({ ...json, version: 2 })).toThrow(RangeError);
  });

  it.each([
    ['a change at version 1, which only a create has', () => PlantUpdated.of(EVENT_ID, plant, 1, AT)],
    ['a fractional version', () => PlantDeleted.of(EVENT_ID, plant.id, 2.5, AT)],
    ['an event id that is not a UUID', () => PlantDeleted.of('not-a-uuid', plant.id, 2, AT)],
    ['an invalid time', () => PlantUpdated.of(EVENT_ID, plant, 2, new Date('nope'))],
  ])('refuses %s', (_case, make) => {
    expect(make).toThrow(RangeError);
  });

  it.each([
    [{ type: 'PlantMoved' }],
    [{ type: 'PlantUpdated', eventId: EVENT_ID, plantId: '1', version: 2, name: '', updatedAt: AT.toISOString() }],
    [{ type: 'PlantDeleted', eventId: EVENT_ID, plantId: '1e400', version: 2, deletedAt: AT.toISOString() }],
    [null],
  ])('refuses %j as no event it knows', (data) => {
    expect(() => plantEventFromJSON(data)).toThrow(RangeError);
  });

  it('keeps ids exact through a PlantDeleted', () => {
    const id = PlantId.fromLiteral('-9223372036854775808') as PlantId;
    expect(PlantDeleted.of(EVENT_ID, id, 2, AT).toJSON().plantId).toBe('-9223372036854775808');
  });
});
