import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { PlantCreated } from '@plantstore/domain';
import type { PlantCatalogue } from './catalogue.js';

/** As the Plant Store's README documents them ("Consuming plant events"). */
export const PLANT_EVENTS_STREAM = 'PLANTSTORE_PLANTS';
export const PLANT_CREATED_SUBJECT = 'plantstore.plants.created';

export interface FollowOptions {
  readonly servers: string;
  /** The durable consumer's name: JetStream remembers what it acknowledged across restarts. */
  readonly durable: string;
  readonly log?: (line: string) => void;
  /** How long to wait for the stream to exist before giving up (forever by default). */
  readonly streamWaitMs?: number;
}

export interface Following {
  /** Events applied, and redeliveries ignored, since start. */
  readonly applied: number;
  readonly duplicates: number;
  stop(): Promise<void>;
}

/**
 * Follows the store's PlantCreated events into the catalogue with a durable pull consumer.
 * A message is acknowledged only after its event is applied (or found applied before): a
 * crash in between means a redelivery, which the catalogue ignores by event id.
 */
export async function followPlantEvents(catalogue: PlantCatalogue, options: FollowOptions): Promise<Following> {
  const log = options.log ?? (() => undefined);
  const connection = await connect({
    servers: options.servers.split(','),
    name: `plant-catalogue-${options.durable}`,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  try {
    await addDurableConsumer(connection, options.durable, log, Date.now() + (options.streamWaitMs ?? Infinity));
  } catch (error) {
    await connection.close();
    throw error;
  }
  const consumer = await jetstream(connection).consumers.get(PLANT_EVENTS_STREAM, options.durable);
  const messages = await consumer.consume({ max_messages: 256 });
  const counts = { applied: 0, duplicates: 0 };
  const done = (async () => {
    for await (const message of messages) {
      let event: PlantCreated;
      try {
        event = PlantCreated.fromJSON(message.json());
      } catch (error) {
        // Not an event this app understands: never redeliver it.
        log(`dropping message ${message.seq}: ${(error as Error).message}`);
        message.term();
        continue;
      }
      if (catalogue.apply(event)) counts.applied++;
      else counts.duplicates++;
      message.ack();
    }
  })();
  return {
    get applied() {
      return counts.applied;
    },
    get duplicates() {
      return counts.duplicates;
    },
    /** Rejects with what stopped the loop, if an event failed to apply; the connection is closed either way. */
    async stop() {
      try {
        await messages.close();
        await done;
      } finally {
        await connection.drain().catch(() => undefined);
      }
    },
  };
}

/** Creates the durable consumer (a no-op when it exists); waits for the stream, which the store's relay creates. */
async function addDurableConsumer(
  connection: NatsConnection,
  durable: string,
  log: (line: string) => void,
  giveUpAt: number,
): Promise<void> {
  const manager = await jetstreamManager(connection);
  for (let attempt = 1; ; attempt++) {
    try {
      await manager.consumers.add(PLANT_EVENTS_STREAM, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: PLANT_CREATED_SUBJECT,
      });
      return;
    } catch (error) {
      if (Date.now() > giveUpAt) throw error;
      if (attempt === 1) log(`waiting for stream ${PLANT_EVENTS_STREAM}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * attempt)));
    }
  }
}
