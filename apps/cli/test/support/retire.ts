import { SqlPlantRepository, type DataSource } from '@plantstore/adapters-persistence';
import { PlantId } from '@plantstore/domain';

/** Deletes a stored plant as DELETE /plants/{id} does: its tombstone keeps the id. */
export async function retire(dataSource: DataSource, id: string): Promise<void> {
  const plants = new SqlPlantRepository(dataSource);
  const plantId = PlantId.fromStored(id);
  const state = await plants.stateOf(plantId);
  if (state?.live !== true) throw new Error(`no live plant ${id} to delete`);
  if (!(await plants.retire(plantId, state.version, { retiredAt: new Date(), retiredByTokenId: undefined })))
    throw new Error(`plant ${id} changed while it was being deleted`);
}
