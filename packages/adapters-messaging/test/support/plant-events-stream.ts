import { jetstreamManager, type StreamConfig } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PLANT_EVENTS_STREAM } from '@plantstore/adapters-messaging';

/** One message of the plant events stream, as JetStream stored it. */
export interface StoredPlantEvent {
  readonly seq: number;
  readonly subject: string;
  readonly msgId: string;
  /** The payload, parsed. */
  readonly event: { readonly eventId: string; readonly type: string; readonly [field: string]: unknown };
}

/** Every message the stream holds, in the stream's order, read one by one by sequence. */
export async function storedPlantEvents(natsUrl: string): Promise<StoredPlantEvent[]> {
  const connection = await connect({ servers: natsUrl });
  try {
    const manager = await jetstreamManager(connection);
    const { state } = await manager.streams.info(PLANT_EVENTS_STREAM);
    const stored: StoredPlantEvent[] = [];
    for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
      const message = await manager.streams.getMessage(PLANT_EVENTS_STREAM, { seq });
      if (message === null) continue;
      stored.push({
        seq: message.seq,
        subject: message.subject,
        msgId: message.header.get('Nats-Msg-Id'),
        event: message.json(),
      });
    }
    return stored;
  } finally {
    await connection.close();
  }
}

/** How many messages the stream holds. */
export async function storedMessageCount(natsUrl: string): Promise<number> {
  const connection = await connect({ servers: natsUrl });
  try {
    return (await (await jetstreamManager(connection)).streams.info(PLANT_EVENTS_STREAM)).state.messages;
  } finally {
    await connection.close();
  }
}

/** The stream's configuration, or undefined when there is no such stream. */
export async function plantEventsStreamConfig(natsUrl: string): Promise<StreamConfig | undefined> {
  const connection = await connect({ servers: natsUrl });
  try {
    const manager = await jetstreamManager(connection);
    return (await manager.streams.info(PLANT_EVENTS_STREAM).catch(() => undefined))?.config;
  } finally {
    await connection.close();
  }
}

/** Makes the stream as an operator would, before the relay comes. */
export async function addPlantEventsStream(natsUrl: string, config: Partial<StreamConfig>): Promise<void> {
  const connection = await connect({ servers: natsUrl });
  try {
    await (await jetstreamManager(connection)).streams.add({ name: PLANT_EVENTS_STREAM, ...config });
  } finally {
    await connection.close();
  }
}

/** Deletes the stream, as an operator might while the relay runs. */
export async function deletePlantEventsStream(natsUrl: string): Promise<void> {
  const connection = await connect({ servers: natsUrl });
  try {
    await (await jetstreamManager(connection)).streams.delete(PLANT_EVENTS_STREAM);
  } finally {
    await connection.close();
  }
}
