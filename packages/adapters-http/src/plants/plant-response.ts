import type { Plant } from '@plantstore/domain';

/** The spec's Plant: `name`, and `tag` only when the plant has one. Never the id. */
export interface PlantResponse {
  readonly name: string;
  readonly tag?: string;
}

export function toPlantResponse(plant: Plant): PlantResponse {
  return plant.tag === undefined ? { name: plant.name.value } : { name: plant.name.value, tag: plant.tag.value };
}
