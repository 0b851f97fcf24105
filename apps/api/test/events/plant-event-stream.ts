import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PLANT_EVENTS_STREAM } from '@plantstore/adapters-messaging';

const READ_WITHIN_MS = 60_000;

/** One message of the plant events stream, as any consumer receives it. */
export interface StreamedPlantEvent {
  readonly eventId: string;
  readonly plantId: string;
  /** The version the event made: 1 for a create. */
  readonly version: number;
}

/**
 * Every message the stream holds, as any consumer would receive it, repeats included. Read by
 * an ordered consumer of its own: a witness apart from the example consumer under test, so an
 * event that consumer refused or never reached is seen all the same.
 */
export async function streamedPlantEvents(natsUrl: string): Promise<StreamedPlantEvent[]> {
  const connection = await connect({ servers: natsUrl });
  try {
    const { state } = await (await jetstreamManager(connection)).streams.info(PLANT_EVENTS_STREAM);
    const reader = await jetstream(connection).consumers.get(PLANT_EVENTS_STREAM);
    const events: StreamedPlantEvent[] = [];
    // A fetch may end early (an ordered consumer recreates itself when a delivery is out of
    // order, on a loaded machine); the next one goes on from the last message read.
    const giveUpAt = Date.now() + READ_WITHIN_MS;
    while (events.length < state.messages && Date.now() < giveUpAt) {
      const messages = await reader.fetch({ max_messages: state.messages - events.length, expires: 2_000 });
      for await (const message of messages) {
        const { eventId, plantId, version } = message.json<StreamedPlantEvent>();
        events.push({ eventId, plantId, version });
        if (events.length === state.messages) break;
      }
    }
    if (events.length < state.messages)
      throw new Error(`read ${events.length} of the stream's ${state.messages} messages within ${READ_WITHIN_MS} ms`);
    return events;
  } finally {
    await connection.close();
  }
}

/**
 * What breaks "one event id per change": one change (plant id, version) under several event ids
 * (a consumer that dedupes by event id would apply it twice) or an event id carried by several
 * changes. Empty when every event id maps to one change and every change to one event id; a
 * repeated message with the same pair is a duplicate, which consumers absorb, not a break.
 */
export function eventIdBreaks(events: readonly StreamedPlantEvent[]): string[] {
  const change = (event: StreamedPlantEvent) => `${event.plantId} v${event.version}`;
  const eventIdsOfChange = groupDistinct(events, change, (event) => event.eventId);
  const changesOfEventId = groupDistinct(events, (event) => event.eventId, change);
  return [
    ...[...eventIdsOfChange]
      .filter(([, ids]) => ids.size > 1)
      .map(([plant, ids]) => `plant ${plant} under event ids ${[...ids].join(', ')}`),
    ...[...changesOfEventId]
      .filter(([, changes]) => changes.size > 1)
      .map(([id, changes]) => `event id ${id} of plants ${[...changes].join(', ')}`),
  ];
}

/** Each streamed plant's versions, distinct and sorted: 1 to its last, with none missing, when the stream is whole. */
export function streamedVersions(events: readonly StreamedPlantEvent[]): Map<string, number[]> {
  const versions = groupDistinct(
    events,
    (event) => event.plantId,
    (event) => String(event.version),
  );
  return new Map([...versions].map(([plant, set]) => [plant, [...set].map(Number).sort((a, b) => a - b)] as const));
}

function groupDistinct<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  valueOf: (item: T) => string,
): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const item of items) {
    const key = keyOf(item);
    const values = groups.get(key) ?? new Set<string>();
    values.add(valueOf(item));
    groups.set(key, values);
  }
  return groups;
}
