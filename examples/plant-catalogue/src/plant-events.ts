import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { plantEventFromJSON, type PlantEvent } from '@plantstore/domain';
import type { PlantCatalogue } from './catalogue.js';

/** As the Plant Store's docs/events.md documents them: every plant event, created, updated and deleted. */
export const PLANT_EVENTS_STREAM = 'PLANTSTORE_PLANTS';
export const PLANT_EVENT_SUBJECTS = 'plantstore.plants.>';

/**
 * An event that comes before the version it follows is redelivered after a pause that doubles
 * from 100 ms up to 5 s (the missing one is on its way: published by another instance of the
 * store, or held back by an outage). After GAP_REDELIVERIES (about 10 minutes) the stream is
 * taken to lack that version, which no waiting fills, and the consumer stops.
 */
export const GAP_REDELIVERIES = 130;

export function redeliveryDelayMs(deliveries: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(deliveries - 1, 6));
}

export interface FollowOptions {
  readonly servers: string;
  /** The durable consumer's name: JetStream remembers what it acknowledged across restarts. */
  readonly durable: string;
  readonly log?: (line: string) => void;
  /** How long to wait for the stream to exist before giving up (forever by default). */
  readonly streamWaitMs?: number;
}

export interface Following {
  /** Events applied, and redeliveries or stale versions ignored, since start. */
  readonly applied: number;
  readonly duplicates: number;
  /** Deliveries put back for later: each came before the version it follows. */
  readonly early: number;
  stop(): Promise<void>;
}

/**
 * Follows the store's plant events into the catalogue with a durable pull consumer. A message
 * is acknowledged only after its event is applied (or found applied before): a crash in between
 * means a redelivery, which the catalogue ignores by event id. An event ahead of its plant's
 * next version is not acknowledged but put back (`nak` with a delay), to come again once the
 * version before it has been applied.
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
  const counts = { applied: 0, duplicates: 0, early: 0 };
  const done = (async () => {
    for await (const message of messages) {
      let event: PlantEvent;
      try {
        event = plantEventFromJSON(message.json());
      } catch (error) {
        // Not an event this app understands: never redeliver it.
        log(`dropping message ${message.seq}: ${(error as Error).message}`);
        message.term();
        continue;
      }
      const outcome = catalogue.apply(event);
      if (outcome === 'early') {
        const deliveries = message.info.deliveryCount;
        if (deliveries >= GAP_REDELIVERIES)
          throw new Error(`plant ${event.plantId} never got the version before ${event.version} (${event.eventId})`);
        counts.early++;
        message.nak(redeliveryDelayMs(deliveries));
        continue;
      }
      if (outcome === 'applied') counts.applied++;
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
    get early() {
      return counts.early;
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
        filter_subject: PLANT_EVENT_SUBJECTS,
      });
      return;
    } catch (error) {
      if (Date.now() > giveUpAt) throw error;
      if (attempt === 1) log(`waiting for stream ${PLANT_EVENTS_STREAM}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * attempt)));
    }
  }
}
