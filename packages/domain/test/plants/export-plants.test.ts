import { ExportPlants, PlantId } from '@plantstore/domain';
import { InMemoryPlantRepository } from '@plantstore/domain/testing';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

async function collect(plants: AsyncIterable<{ id: PlantId }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const plant of plants) ids.push(plant.id.toString());
  return ids;
}

describe('ExportPlants', () => {
  it.each([1, 2, 3, 100])('yields every plant once, ascending by id, with pages of %i', async (pageSize) => {
    const plants = new InMemoryPlantRepository();
    const ids = [PlantId.MAX, 5n, -1n, PlantId.MIN, 0n].map(String);
    for (const id of ids)
      await plants.insertIfAbsent(validPlant(PlantInputMother.valid({ id })), {
        createdByTokenId: undefined,
        createdAt: new Date(),
      });
    expect(await collect(new ExportPlants(plants, pageSize).execute())).toEqual(
      [PlantId.MIN, -1n, 0n, 5n, PlantId.MAX].map(String),
    );
  });

  it('yields nothing from an empty store', async () => {
    expect(await collect(new ExportPlants(new InMemoryPlantRepository()).execute())).toEqual([]);
  });
});
