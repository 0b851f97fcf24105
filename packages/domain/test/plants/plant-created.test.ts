import { PlantCreated } from '@plantstore/domain';
import { validPlant } from '../mothers/plant-input-mother.js';

const EVENT_ID = '0b6f3c9e-2d4a-4f1b-9c8e-7a5d3b2e1f00';
const CREATED_AT = new Date('2026-11-22T10:00:00.000Z');

describe('PlantCreated', () => {
  it('serialises the plant id as exact decimal text, with every field a consumer needs', () => {
    const plant = validPlant({ id: '9223372036854775807', name: 'Monstera', tag: 'Araceae' });
    expect(JSON.parse(JSON.stringify(PlantCreated.of(EVENT_ID, plant, CREATED_AT)))).toEqual({
      type: 'PlantCreated',
      eventId: EVENT_ID,
      plantId: '9223372036854775807',
      version: 1,
      name: 'Monstera',
      tag: 'Araceae',
      createdAt: '2026-11-22T10:00:00.000Z',
    });
  });

  it('leaves the tag out when the plant has none, and reads that form back', () => {
    const event = PlantCreated.of(EVENT_ID, validPlant({ id: '-1', name: 'Fern' }), CREATED_AT);
    expect(event.toJSON()).not.toHaveProperty('tag');
    const read = PlantCreated.fromJSON(JSON.parse(JSON.stringify(event)));
    expect(read.plant.hasSameContentAs(event.plant)).toBe(true);
    expect(read.plantId.value).toBe(-1n);
    expect(read.createdAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('refuses data that is not a PlantCreated event', () => {
    const good = PlantCreated.of(EVENT_ID, validPlant({ id: '1', name: 'Fern' }), CREATED_AT).toJSON();
    for (const bad of [
      null,
      'PlantCreated',
      { ...good, type: 'PlantDeleted' },
      { ...good, eventId: 'not-a-uuid' },
      { ...good, plantId: 1 },
      { ...good, plantId: '9223372036854775808' },
      { ...good, name: '' },
      { ...good, tag: 7 },
      { ...good, createdAt: 'yesterday' },
    ]) {
      expect(() => PlantCreated.fromJSON(bad)).toThrow(RangeError);
    }
  });
});
