import { jetstream, jetstreamManager, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { PlantCreated } from '@plantstore/domain';
import { DUPLICATE_WINDOW_MS, PLANT_CREATED_SUBJECT, PLANT_EVENTS_STREAM } from './plant-events-stream.js';

/** How long one publish waits for JetStream's acknowledgement. */
export const PUBLISH_TIMEOUT_MS = 5_000;
/** How long a connection attempt waits for NATS to answer. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** Between two attempts to reach NATS, the first connection's and the client's own reconnects. */
export const RECONNECT_WAIT_MS = 500;

export interface PublishReport {
  /** Messages JetStream stored. */
  readonly stored: number;
  /** Messages JetStream dropped as duplicates: it had stored one with the same event id. */
  readonly duplicates: number;
}

/**
 * Publishes PlantCreated events to JetStream, each with its event id as message id
 * (Nats-Msg-Id), so a republished event within the duplicate window is dropped by the stream.
 * The connection reconnects by itself for as long as the process runs. It follows the
 * connection's state: a publish waiting for acknowledgements when the connection drops fails at
 * once (its messages went into a dead socket; no acknowledgement will come), a publish while it
 * is down fails at once, and `onReconnect` listeners hear when it is back, so the relay retries
 * then instead of waiting out PUBLISH_TIMEOUT_MS or its backoff.
 */
export class JetStreamPlantCreatedPublisher {
  private streamReady = false;
  private connected = true;
  /** Rejects the publishes in flight; called when the connection drops. */
  private readonly inFlight = new Set<(error: Error) => void>();
  private readonly reconnectListeners = new Set<() => void>();

  private constructor(
    private readonly connection: NatsConnection,
    private readonly client: JetStreamClient,
  ) {
    void this.followStatus();
  }

  /** `listener` runs each time the connection is back after a drop. */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.add(listener);
  }

  private async followStatus(): Promise<void> {
    try {
      for await (const status of this.connection.status()) {
        if (status.type === 'disconnect') {
          this.connected = false;
          const lost = new Error(`NATS connection to ${status.server} lost`);
          for (const reject of this.inFlight) reject(lost);
        } else if (status.type === 'reconnect') {
          this.connected = true;
          for (const listener of this.reconnectListeners) listener();
        }
      }
    } catch {
      // The status iterator ends with the connection; nothing is waiting on it.
    }
  }

  /**
   * Resolves once connected, rejects when NATS does not answer (within CONNECT_TIMEOUT_MS): the
   * relay tries again every `reconnectWaitMs`. Not the client's own waitOnFirstConnect, whose
   * timers nothing can cancel: a server stopped while NATS was down stayed alive until its
   * shutdown timeout. Once connected, the client reconnects by itself after any drop.
   */
  static async connect(servers: string): Promise<JetStreamPlantCreatedPublisher> {
    const connection = await connect({
      servers: servers.split(','),
      name: 'plantstore-outbox-relay',
      timeout: CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
    });
    const publisher = new JetStreamPlantCreatedPublisher(
      connection,
      jetstream(connection, { timeout: PUBLISH_TIMEOUT_MS }),
    );
    // Made at once, so consumers can subscribe before the first plant; if it fails, the first publish tries again.
    await publisher.ensureStream().catch(() => undefined);
    return publisher;
  }

  /** Resolves once JetStream acknowledged every event; rejects if any was not acknowledged. */
  async publish(events: readonly PlantCreated[]): Promise<PublishReport> {
    if (!this.connected) throw new Error('NATS connection is down; publishing when it is back');
    let reject: (error: Error) => void = () => undefined;
    const lost = new Promise<never>((_resolve, fail) => (reject = fail));
    this.inFlight.add(reject);
    try {
      if (!this.streamReady) await Promise.race([this.ensureStream(), lost]);
      // Sent together on one connection: the server stores them in this order.
      const acks = await Promise.race([
        Promise.all(
          events.map((event) =>
            this.client.publish(PLANT_CREATED_SUBJECT, JSON.stringify(event), {
              msgID: event.eventId,
              timeout: PUBLISH_TIMEOUT_MS,
            }),
          ),
        ),
        lost,
      ]);
      const duplicates = acks.filter((ack) => ack.duplicate).length;
      return { stored: acks.length - duplicates, duplicates };
    } catch (error) {
      // The stream may have been deleted, or NATS restarted without its store: check it again next time.
      this.streamReady = false;
      throw error;
    } finally {
      this.inFlight.delete(reject);
    }
  }

  async close(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.close();
  }

  /** Creates the stream when it is missing; one an operator made with other limits is kept as it is. */
  private async ensureStream(): Promise<void> {
    const manager = await jetstreamManager(this.connection, { timeout: PUBLISH_TIMEOUT_MS });
    const existing = await manager.streams.info(PLANT_EVENTS_STREAM).catch(() => undefined);
    if (existing === undefined) {
      await manager.streams.add({
        name: PLANT_EVENTS_STREAM,
        subjects: [PLANT_CREATED_SUBJECT],
        storage: StorageType.File,
        duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      });
    }
    this.streamReady = true;
  }
}
