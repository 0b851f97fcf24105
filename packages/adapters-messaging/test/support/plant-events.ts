import { Plant, PlantCreated, PlantDeleted, PlantUpdated, type PlantEvent } from '@plantstore/domain';

/** Event ids that tell the kind and the plant apart: 1 for a create, 2 an update, 3 a deletion. */
function eventId(kind: number, n: number): string {
  return `00000000-0000-4000-8000-${String(kind * 1_000_000 + n).padStart(12, '0')}`;
}

function plant(n: number, name = `plant ${n}`): Plant {
  const parsed = Plant.parse({ id: String(n), name });
  if (!parsed.ok) throw new Error('invalid test plant');
  return parsed.plant;
}

export function created(n: number): PlantCreated {
  return PlantCreated.of(eventId(1, n), plant(n), new Date(0));
}

export function updated(n: number, version = 2): PlantUpdated {
  return PlantUpdated.of(eventId(2, n), plant(n, `plant ${n}, renamed`), version, new Date(0));
}

export function deleted(n: number, version = 3): PlantDeleted {
  return PlantDeleted.of(eventId(3, n), plant(n).id, version, new Date(0));
}

/** `count` creates from plant `from` on. */
export function creates(from: number, count: number): PlantCreated[] {
  return Array.from({ length: count }, (_, i) => created(from + i));
}

/** A plant's life: its create, an update and its deletion, for plants `from` to `from + count - 1`. */
export function lives(from: number, count: number): PlantEvent[] {
  return Array.from({ length: count }, (_, i) => [created(from + i), updated(from + i), deleted(from + i)]).flat();
}
