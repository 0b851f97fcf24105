import type { Plant, PlantId } from '@plantstore/domain';
import { toPlantResponse } from './plant-response.js';

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** The body of GET /plants/{id}, PUT's and POST's: the Plant without its id. */
export function plantBody(plant: Plant): string {
  return JSON.stringify(toPlantResponse(plant));
}

/**
 * The strong ETag of a plant at a version (docs/http-api.md#get-plantsid), `"<id>v<version>"`:
 * the version is 1 at create and one more with each committed change, and an unchanged PUT
 * keeps it, so the tag changes exactly when a change is committed and is the same on every
 * instance; the id keeps one plant's tag from naming another's.
 */
export function versionTag(id: PlantId, version: number): string {
  return `"${id.toString()}v${version}"`;
}
