import { UUID } from './plant-created.js';
import type { PlantId } from './plant-id.js';
import { Plant } from './plant.js';

/** The event as plain data: what a broker carries and `JSON.stringify(event)` writes. */
export interface PlantUpdatedJson {
  readonly type: 'PlantUpdated';
  /** Unique per event (a UUID): the key for dropping duplicates. */
  readonly eventId: string;
  /** The plant's id as exact decimal text. */
  readonly plantId: string;
  /** The version this change made: one more than the version it replaced. */
  readonly version: number;
  readonly name: string;
  /** Absent when the plant has no tag now. */
  readonly tag?: string;
  /** When the change was committed, ISO-8601 in UTC. */
  readonly updatedAt: string;
}

/**
 * A plant's name or tag changed (PUT): `plant` is the plant as it is from this version on.
 * Never raised for a change that wrote nothing (the same content again).
 */
export class PlantUpdated {
  static readonly TYPE = 'PlantUpdated';

  private constructor(
    readonly eventId: string,
    readonly plant: Plant,
    readonly version: number,
    readonly updatedAt: Date,
  ) {}

  /** @throws {RangeError} `eventId` is not a lower-case UUID, `version` not above 1, or `updatedAt` invalid. */
  static of(eventId: string, plant: Plant, version: number, updatedAt: Date): PlantUpdated {
    checkEvent(eventId, version, updatedAt);
    return new PlantUpdated(eventId, plant, version, updatedAt);
  }

  /**
   * Reads the plain form back, as a consumer receives it, applying the plant rules again.
   * @throws {RangeError} the data is not a PlantUpdated event.
   */
  static fromJSON(data: unknown): PlantUpdated {
    const json = eventRecord(data, PlantUpdated.TYPE);
    const { eventId, plantId, version, name, tag, updatedAt } = json;
    if (typeof eventId !== 'string' || typeof plantId !== 'string' || typeof name !== 'string')
      throw new RangeError('eventId, plantId and name must be strings');
    if (tag !== undefined && typeof tag !== 'string') throw new RangeError('tag must be a string when present');
    if (typeof version !== 'number') throw new RangeError('version must be a number');
    if (typeof updatedAt !== 'string') throw new RangeError('updatedAt must be an ISO-8601 string');
    const parsed = Plant.parse(tag === undefined ? { id: plantId, name } : { id: plantId, name, tag });
    if (!parsed.ok) throw new RangeError(`the event's plant breaks the plant rules: ${parsed.violations[0]!.message}`);
    return PlantUpdated.of(eventId, parsed.plant, version, new Date(updatedAt));
  }

  get plantId(): PlantId {
    return this.plant.id;
  }

  toJSON(): PlantUpdatedJson {
    const { id, name, tag } = this.plant.toJSON();
    return {
      type: 'PlantUpdated',
      eventId: this.eventId,
      plantId: id,
      version: this.version,
      name,
      ...(tag === undefined ? {} : { tag }),
      updatedAt: this.updatedAt.toISOString(),
    };
  }
}

/** The checks every change event makes of what it is built from. */
export function checkEvent(eventId: string, version: number, at: Date): void {
  if (!UUID.test(eventId)) throw new RangeError(`event id must be a lower-case UUID, not ${JSON.stringify(eventId)}`);
  if (!Number.isSafeInteger(version) || version < 2)
    throw new RangeError(`a change's version is a whole number above 1, not ${version}`);
  if (Number.isNaN(at.getTime())) throw new RangeError('the event time must be a valid date');
}

/** The event's members, once it is known to be an object of this type. */
export function eventRecord(data: unknown, type: string): Readonly<Record<string, unknown>> {
  if (typeof data !== 'object' || data === null) throw new RangeError(`a ${type} event is a JSON object`);
  const json = data as Record<string, unknown>;
  if (json['type'] !== type) throw new RangeError(`type must be "${type}"`);
  return json;
}
