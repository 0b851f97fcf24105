import { Plant, PlantId, type PlantState } from '@plantstore/domain';
import type { StoredPlantRow } from './plant-sql.js';

/** A live plant's row as the domain's Plant (the rules were applied on the way in). */
export function toPlant(row: StoredPlantRow): Plant {
  return Plant.fromStored(PlantId.fromStored(row.id), row.name!, row.tag);
}

/** A row as the id's state: the live plant and its version, or its tombstone. */
export function toState(row: StoredPlantRow): PlantState {
  const version = Number(row.version);
  if (row.deleted_at === null) return { live: true, plant: toPlant(row), version };
  return { live: false, id: PlantId.fromStored(row.id), version, retiredAt: new Date(row.deleted_at) };
}

/** Stores write instants as ISO-8601 (PostgreSQL casts the text to timestamptz). */
export class IsoTimeText {
  private lastTime = Number.NaN;
  private lastText = '';

  /** The writes of one batch were mostly made within the same millisecond: its text is made once. */
  of(instant: Date): string {
    const time = instant.getTime();
    if (time !== this.lastTime) [this.lastTime, this.lastText] = [time, instant.toISOString()];
    return this.lastText;
  }
}

export function byIdAscending(a: { readonly id: PlantId }, b: { readonly id: PlantId }): number {
  return a.id.value < b.id.value ? -1 : a.id.value > b.id.value ? 1 : 0;
}

export function fulfilled<T>(value: T): PromiseFulfilledResult<T> {
  return { status: 'fulfilled', value };
}

export function rejected(reason: unknown): PromiseRejectedResult {
  return { status: 'rejected', reason };
}
