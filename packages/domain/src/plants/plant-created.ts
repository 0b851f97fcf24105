import { PlantId } from './plant-id.js';
import { Plant } from './plant.js';

/** The event as plain data: what a broker carries and `JSON.stringify(event)` writes. */
export interface PlantCreatedJson {
  readonly type: 'PlantCreated';
  /** Unique per event (a UUID): the key for dropping duplicates. */
  readonly eventId: string;
  /** The plant's id as exact decimal text. */
  readonly plantId: string;
  /** Always 1: a plant's first version. Its changes carry the next ones. */
  readonly version: 1;
  readonly name: string;
  /** Absent when the plant has no tag. */
  readonly tag?: string;
  /** When the plant was stored, ISO-8601 in UTC. */
  readonly createdAt: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A plant was created: stored for the first time. Never raised for a replay or a conflict,
 * since neither writes anything. A store that publishes events records this in the same
 * transaction as the plant (docs/storage.md#outbox), so there is one event per stored plant.
 */
export class PlantCreated {
  static readonly TYPE = 'PlantCreated';

  private constructor(
    readonly eventId: string,
    readonly plant: Plant,
    readonly createdAt: Date,
  ) {}

  /** @throws {RangeError} `eventId` is not a lower-case UUID, or `createdAt` is not a valid date. */
  static of(eventId: string, plant: Plant, createdAt: Date): PlantCreated {
    if (!UUID.test(eventId)) throw new RangeError(`event id must be a lower-case UUID, not ${JSON.stringify(eventId)}`);
    if (Number.isNaN(createdAt.getTime())) throw new RangeError('createdAt must be a valid date');
    return new PlantCreated(eventId, plant, createdAt);
  }

  /**
   * Reads the plain form back, as a consumer receives it, applying the plant rules again.
   * @throws {RangeError} the data is not a PlantCreated event.
   */
  static fromJSON(data: unknown): PlantCreated {
    if (typeof data !== 'object' || data === null) throw new RangeError('a PlantCreated event is a JSON object');
    const json = data as Record<string, unknown>;
    const { type, eventId, plantId, name, tag, createdAt } = json;
    if (type !== PlantCreated.TYPE) throw new RangeError(`type must be "${PlantCreated.TYPE}"`);
    if (typeof eventId !== 'string' || typeof plantId !== 'string' || typeof name !== 'string')
      throw new RangeError('eventId, plantId and name must be strings');
    if (tag !== undefined && typeof tag !== 'string') throw new RangeError('tag must be a string when present');
    if (typeof createdAt !== 'string') throw new RangeError('createdAt must be an ISO-8601 string');
    // Events written before versions were kept carry none: a create is always version 1.
    if (json['version'] !== undefined && json['version'] !== 1) throw new RangeError('a PlantCreated is version 1');
    const parsed = Plant.parse(tag === undefined ? { id: plantId, name } : { id: plantId, name, tag });
    if (!parsed.ok) throw new RangeError(`the event's plant breaks the plant rules: ${parsed.violations[0]!.message}`);
    return PlantCreated.of(eventId, parsed.plant, new Date(createdAt));
  }

  get plantId(): PlantId {
    return this.plant.id;
  }

  get version(): 1 {
    return 1;
  }

  toJSON(): PlantCreatedJson {
    const { id, name, tag } = this.plant.toJSON();
    const common = { type: 'PlantCreated' as const, eventId: this.eventId, plantId: id, version: 1 as const, name };
    return { ...common, ...(tag === undefined ? {} : { tag }), createdAt: this.createdAt.toISOString() };
  }
}
