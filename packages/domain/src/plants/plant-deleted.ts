import { PlantId } from './plant-id.js';
import { checkEvent, eventRecord } from './plant-updated.js';

/** The event as plain data: what a broker carries and `JSON.stringify(event)` writes. */
export interface PlantDeletedJson {
  readonly type: 'PlantDeleted';
  /** Unique per event (a UUID): the key for dropping duplicates. */
  readonly eventId: string;
  /** The plant's id as exact decimal text: retired, never used again. */
  readonly plantId: string;
  /** The version the deletion made: the plant's last. */
  readonly version: number;
  /** When the deletion was committed, ISO-8601 in UTC. */
  readonly deletedAt: string;
}

/** A plant was deleted (DELETE): its id is retired for ever. Never raised for a repeated delete. */
export class PlantDeleted {
  static readonly TYPE = 'PlantDeleted';

  private constructor(
    readonly eventId: string,
    readonly plantId: PlantId,
    readonly version: number,
    readonly deletedAt: Date,
  ) {}

  /** @throws {RangeError} `eventId` is not a lower-case UUID, `version` not above 1, or `deletedAt` invalid. */
  static of(eventId: string, plantId: PlantId, version: number, deletedAt: Date): PlantDeleted {
    checkEvent(eventId, version, deletedAt);
    return new PlantDeleted(eventId, plantId, version, deletedAt);
  }

  /** @throws {RangeError} the data is not a PlantDeleted event. */
  static fromJSON(data: unknown): PlantDeleted {
    const json = eventRecord(data, PlantDeleted.TYPE);
    const { eventId, plantId, version, deletedAt } = json;
    if (typeof eventId !== 'string' || typeof plantId !== 'string')
      throw new RangeError('eventId and plantId must be strings');
    if (typeof version !== 'number') throw new RangeError('version must be a number');
    if (typeof deletedAt !== 'string') throw new RangeError('deletedAt must be an ISO-8601 string');
    const id = PlantId.fromLiteral(plantId);
    if (!(id instanceof PlantId)) throw new RangeError(`the event's plant id breaks the id rule: ${id.message}`);
    return PlantDeleted.of(eventId, id, version, new Date(deletedAt));
  }

  toJSON(): PlantDeletedJson {
    return {
      type: 'PlantDeleted',
      eventId: this.eventId,
      plantId: this.plantId.toString(),
      version: this.version,
      deletedAt: this.deletedAt.toISOString(),
    };
  }
}
