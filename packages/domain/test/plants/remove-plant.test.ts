import { CreatePlant, GetPlant, RemovePlant, StorageUnavailableError } from '@plantstore/domain';
import { FixedClock, InMemoryPlantRepository } from '@plantstore/domain/testing';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

const plant = validPlant(PlantInputMother.withTag('Araceae'));

async function setUp() {
  const plants = new InMemoryPlantRepository();
  const clock = new FixedClock('2025-06-03T12:00:00.000Z');
  await new CreatePlant(plants, clock).execute({ plant });
  return { plants, clock, removePlant: new RemovePlant(plants, clock) };
}

describe('RemovePlant', () => {
  it('deletes a live plant: its tombstone keeps the id, when, and which token', async () => {
    const { plants, removePlant } = await setUp();
    const result = await removePlant.execute({ id: plant.id, removedByTokenId: 'token-1' });
    expect(result.outcome).toBe('removed');
    expect(plants.stored('1')).toEqual({
      plant: undefined,
      provenance: expect.anything(),
      version: 2,
      retirement: { retiredAt: new Date('2025-06-03T12:00:00.000Z'), retiredByTokenId: 'token-1' },
    });
  });

  it('answers a repeated delete as already removed, whatever the precondition says, and writes nothing', async () => {
    const { plants, removePlant } = await setUp();
    await removePlant.execute({ id: plant.id });
    const again = await removePlant.execute({ id: plant.id, precondition: { versions: [] } });
    expect(again.outcome).toBe('already-removed');
    expect(plants.stored('1')?.version).toBe(2);
  });

  it('keeps the plant when it is at no version the precondition expects', async () => {
    const { plants, removePlant } = await setUp();
    const result = await removePlant.execute({ id: plant.id, precondition: { versions: [2] } });
    expect(result).toEqual({ outcome: 'precondition-failed', plant, version: 1 });
    expect(plants.stored('1')).toMatchObject({ plant, version: 1 });
  });

  it('answers not-found for an id never created', async () => {
    const { removePlant } = await setUp();
    const other = validPlant(PlantInputMother.valid({ id: '2' }));
    expect((await removePlant.execute({ id: other.id })).outcome).toBe('not-found');
  });

  it('retires the id for ever: a create of it, even the very one that made the plant, is refused as retired', async () => {
    const { plants, clock, removePlant } = await setUp();
    await removePlant.execute({ id: plant.id });
    const createPlant = new CreatePlant(plants, clock);
    expect((await createPlant.execute({ plant })).outcome).toBe('retired');
    const other = validPlant(PlantInputMother.valid({ name: 'Another' }));
    expect((await createPlant.execute({ plant: other })).outcome).toBe('retired');
    expect(plants.stored('1')?.plant).toBeUndefined();
  });

  it('is told apart from an id never created by GetPlant', async () => {
    const { plants, removePlant } = await setUp();
    await removePlant.execute({ id: plant.id });
    const never = validPlant(PlantInputMother.valid({ id: '2' }));
    expect((await new GetPlant(plants).execute(plant.id)).outcome).toBe('deleted');
    expect((await new GetPlant(plants).execute(never.id)).outcome).toBe('not-found');
  });

  it('decides again when another writer changed the plant between its read and its write', async () => {
    const { plants, removePlant } = await setUp();
    const renamed = validPlant(PlantInputMother.valid({ name: 'Renamed' }));
    const retire = plants.retire.bind(plants);
    let raced = false;
    plants.retire = async (id, version, retirement) => {
      if (!raced) {
        raced = true;
        await plants.replace(renamed, 1, { changedAt: new Date() });
      }
      return retire(id, version, retirement);
    };
    const result = await removePlant.execute({
      id: plant.id,
      precondition: { versions: [1] },
    });
    expect(result).toEqual({ outcome: 'precondition-failed', plant: renamed, version: 2 });
  });

  it('lets a store failure through unchanged', async () => {
    const { plants, removePlant } = await setUp();
    plants.goOffline();
    await expect(removePlant.execute({ id: plant.id })).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
