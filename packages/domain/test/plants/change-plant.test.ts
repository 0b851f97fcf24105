import { ChangePlant, MAX_CHANGE_ATTEMPTS, StorageUnavailableError, type Plant } from '@plantstore/domain';
import { FixedClock, InMemoryPlantRepository } from '@plantstore/domain/testing';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

const CREATED = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };

async function setUp(stored: Plant = validPlant(PlantInputMother.withTag('Araceae'))) {
  const plants = new InMemoryPlantRepository();
  await plants.insertIfAbsent(stored, CREATED);
  return { plants, changePlant: new ChangePlant(plants, new FixedClock('2025-06-02T12:00:00.000Z')) };
}

const renamed = validPlant(PlantInputMother.valid({ name: 'Swiss cheese plant' }));

describe('ChangePlant', () => {
  it('replaces name and tag (an absent tag removes it) and makes the next version', async () => {
    const { plants, changePlant } = await setUp();
    const result = await changePlant.execute({ plant: renamed });
    expect(result).toEqual({ outcome: 'changed', plant: renamed, version: 2 });
    expect(plants.stored('1')).toMatchObject({ plant: renamed, version: 2 });
    expect(plants.stored('1')?.plant?.tag).toBeUndefined();
  });

  it('writes nothing when the content is already stored, whatever the precondition says', async () => {
    const { plants, changePlant } = await setUp(renamed);
    const result = await changePlant.execute({ plant: renamed, precondition: { versions: [] } });
    expect(result).toEqual({ outcome: 'unchanged', plant: renamed, version: 1 });
    expect(plants.stored('1')?.version).toBe(1);
  });

  it('refuses the change when the plant is at no version the precondition expects, telling what is stored', async () => {
    const stored = validPlant(PlantInputMother.withTag('Araceae'));
    const { plants, changePlant } = await setUp(stored);
    const result = await changePlant.execute({ plant: renamed, precondition: { versions: [2, 3] } });
    expect(result).toEqual({ outcome: 'precondition-failed', plant: stored, version: 1 });
    expect(plants.stored('1')).toMatchObject({ plant: stored, version: 1 });
  });

  it('applies the change when the plant is at one of the versions the precondition expects', async () => {
    const { plants, changePlant } = await setUp();
    const result = await changePlant.execute({ plant: renamed, precondition: { versions: [7, 1] } });
    expect(result).toEqual({ outcome: 'changed', plant: renamed, version: 2 });
    expect(plants.stored('1')).toMatchObject({ plant: renamed, version: 2 });
  });

  it('never creates: an id never created is not-found', async () => {
    const plants = new InMemoryPlantRepository();
    const result = await new ChangePlant(plants, new FixedClock()).execute({ plant: renamed });
    expect(result.outcome).toBe('not-found');
    expect(plants.size).toBe(0);
  });

  it('answers deleted for a retired id, and writes nothing', async () => {
    const { plants, changePlant } = await setUp();
    await plants.retire(renamed.id, 1, { retiredAt: new Date(), retiredByTokenId: undefined });
    expect((await changePlant.execute({ plant: renamed })).outcome).toBe('deleted');
    expect(plants.stored('1')).toMatchObject({ plant: undefined, version: 2 });
  });

  it('decides again on what is stored now when another writer won the race, and keeps the precondition', async () => {
    const stored = validPlant(PlantInputMother.valid({ name: 'first' }));
    const { plants, changePlant } = await setUp(stored);
    const other = validPlant(PlantInputMother.valid({ name: 'other writer' }));
    // Between this change's read and its write, another writer commits version 2.
    const replace = plants.replace.bind(plants);
    let raced = false;
    plants.replace = async (plant, version, revision) => {
      if (!raced) {
        raced = true;
        await replace(other, 1, revision);
      }
      return replace(plant, version, revision);
    };
    const result = await changePlant.execute({
      plant: renamed,
      precondition: { versions: [1] },
    });
    expect(result).toEqual({ outcome: 'precondition-failed', plant: other, version: 2 });
    expect(plants.stored('1')).toMatchObject({ plant: other, version: 2 });
  });

  it(`gives up with StorageUnavailableError after losing ${MAX_CHANGE_ATTEMPTS} races in a row`, async () => {
    const { plants, changePlant } = await setUp();
    plants.replace = async () => false;
    await expect(changePlant.execute({ plant: renamed })).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('lets a store failure through unchanged', async () => {
    const { plants, changePlant } = await setUp();
    plants.goOffline();
    await expect(changePlant.execute({ plant: renamed })).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('refuses what is not a Plant, before asking the store', async () => {
    const { changePlant } = await setUp();
    await expect(changePlant.execute({ plant: { id: 1 } as unknown as Plant })).rejects.toThrow(TypeError);
  });
});
