import { PlantCreated, type PlantCreatedJson } from './plant-created.js';
import { PlantDeleted, type PlantDeletedJson } from './plant-deleted.js';
import { PlantUpdated, type PlantUpdatedJson } from './plant-updated.js';

/** Every event of a plant's life, each with the version it made (1 for its creation). */
export type PlantEvent = PlantCreated | PlantUpdated | PlantDeleted;
export type PlantEventJson = PlantCreatedJson | PlantUpdatedJson | PlantDeletedJson;

/**
 * Reads any plant event as a consumer receives it (its `type` says which).
 * @throws {RangeError} the data is no plant event, or breaks the rules of the one it names.
 */
export function plantEventFromJSON(data: unknown): PlantEvent {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (type === PlantCreated.TYPE) return PlantCreated.fromJSON(data);
  if (type === PlantUpdated.TYPE) return PlantUpdated.fromJSON(data);
  if (type === PlantDeleted.TYPE) return PlantDeleted.fromJSON(data);
  throw new RangeError(`type must be one of ${[PlantCreated.TYPE, PlantUpdated.TYPE, PlantDeleted.TYPE].join(', ')}`);
}
