import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, createInbox, headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import type { PlantEvent } from '@plantstore/domain';
import type { PlantEventPublisher, PublishReport } from './outbox-relay.js';
import {
  DUPLICATE_WINDOW_MS,
  PLANT_CREATED_SUBJECT,
  PLANT_EVENT_SUBJECTS,
  PLANT_EVENTS_STREAM,
  subjectOf,
} from './plant-events-stream.js';

/** How long one publish waits for JetStream's acknowledgement. */
export const PUBLISH_TIMEOUT_MS = 5_000;
/** How long a connection attempt waits for NATS to answer. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** Between two attempts to reach NATS, the first connection's and the client's own reconnects. */
export const RECONNECT_WAIT_MS = 500;

/**
 * Publishes plant events to JetStream, each on its kind's subject with its event id as message id
 * (Nats-Msg-Id), so a republished event within the duplicate window is dropped by the stream.
 * The connection reconnects by itself for as long as the process runs. It follows the
 * connection's state: a publish waiting for acknowledgements when the connection drops fails at
 * once (its messages went into a dead socket; no acknowledgement will come), a publish while it
 * is down fails at once, and `onReconnect` listeners hear when it is back, so the relay retries
 * then instead of waiting out PUBLISH_TIMEOUT_MS or its backoff.
 *
 * A batch is pipelined: every message goes out at once with a reply subject under one inbox
 * of this publisher, one subscription hears every acknowledgement, and one timer bounds the
 * batch. (The JetStream client's publish makes a promise, a timer and a request per message:
 * most of the relay's cost per event.)
 */
export class JetStreamPlantEventPublisher implements PlantEventPublisher {
  private streamReady = false;
  private connected = true;
  /** The batches waiting for acknowledgements, by their reply prefix. */
  private readonly inFlight = new Map<string, AckCollector>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly ackInbox = createInbox();
  private batches = 0;

  private constructor(private readonly connection: NatsConnection) {
    connection.subscribe(`${this.ackInbox}.>`, { callback: (_error, msg) => this.onAck(msg) });
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
          for (const collector of this.inFlight.values()) collector.fail(lost);
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
  static async connect(servers: string): Promise<JetStreamPlantEventPublisher> {
    const connection = await connect({
      servers: servers.split(','),
      name: 'plantstore-outbox-relay',
      timeout: CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
    });
    const publisher = new JetStreamPlantEventPublisher(connection);
    // Made at once, so consumers can subscribe before the first plant; if it fails, the first publish tries again.
    await publisher.ensureStream().catch(() => undefined);
    return publisher;
  }

  /** Resolves once JetStream acknowledged every event; rejects if any was not acknowledged. */
  async publish(events: readonly PlantEvent[]): Promise<PublishReport> {
    if (!this.connected) throw new Error('NATS connection is down; publishing when it is back');
    try {
      if (!this.streamReady) await this.ensureStream();
      return await this.publishBatch(events);
    } catch (error) {
      // The stream may have been deleted, or NATS restarted without its store: check it again next time.
      this.streamReady = false;
      throw error;
    }
  }

  private publishBatch(events: readonly PlantEvent[]): Promise<PublishReport> {
    if (events.length === 0) return Promise.resolve({ stored: 0, duplicates: 0 });
    const prefix = `${this.ackInbox}.${++this.batches}`;
    const collector = new AckCollector(events.length);
    this.inFlight.set(prefix, collector);
    const timer = setTimeout(
      () => collector.fail(new Error(`JetStream did not acknowledge within ${PUBLISH_TIMEOUT_MS} ms`)),
      PUBLISH_TIMEOUT_MS,
    );
    // Sent together on one connection: the server stores them in this order.
    events.forEach((event, i) => {
      const headersOfEvent = headers();
      headersOfEvent.set('Nats-Msg-Id', event.eventId);
      // Its plain form made once: the subject and the body both come from it.
      const json = event.toJSON();
      this.connection.publish(subjectOf(json.type), JSON.stringify(json), {
        reply: `${prefix}.${i}`,
        headers: headersOfEvent,
      });
    });
    return collector.report.finally(() => {
      clearTimeout(timer);
      this.inFlight.delete(prefix);
    });
  }

  /** One acknowledgement, `<inbox>.<batch>.<index>`: JetStream's PubAck, or a status when nothing stored it. */
  private onAck(msg: Msg): void {
    const prefix = msg.subject.slice(0, msg.subject.lastIndexOf('.'));
    const collector = this.inFlight.get(prefix);
    if (collector === undefined) return; // a batch that already failed or timed out
    if (msg.headers?.hasError) {
      collector.fail(
        new Error(`no stream stored ${PLANT_EVENT_SUBJECTS}: ${msg.headers.code} ${msg.headers.description}`),
      );
      return;
    }
    const ack = msg.json<PubAck>();
    if (ack.error !== undefined) collector.fail(new Error(`JetStream refused an event: ${ack.error.description}`));
    else collector.acknowledged(ack.duplicate === true);
  }

  async close(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.close();
  }

  /**
   * Creates the stream when it is missing; one an operator made with other limits is kept as it
   * is. A stream made before changes had events holds only the created subject: it is given
   * every plant subject, so that updates and deletions are stored beside the creates.
   */
  private async ensureStream(): Promise<void> {
    const manager = await jetstreamManager(this.connection, { timeout: PUBLISH_TIMEOUT_MS });
    const existing = await manager.streams.info(PLANT_EVENTS_STREAM).catch(() => undefined);
    if (existing === undefined) {
      await manager.streams.add({
        name: PLANT_EVENTS_STREAM,
        subjects: [PLANT_EVENT_SUBJECTS],
        storage: StorageType.File,
        duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      });
    } else if (existing.config.subjects?.includes(PLANT_CREATED_SUBJECT) === true) {
      const subjects = existing.config.subjects.filter((subject) => subject !== PLANT_CREATED_SUBJECT);
      await manager.streams.update(PLANT_EVENTS_STREAM, {
        ...existing.config,
        subjects: [...subjects, PLANT_EVENT_SUBJECTS],
      });
    }
    this.streamReady = true;
  }
}

/** JetStream's answer to a publish. */
interface PubAck {
  readonly stream?: string;
  readonly seq?: number;
  readonly duplicate?: boolean;
  readonly error?: { readonly code: number; readonly description: string };
}

/** Counts one batch's acknowledgements; settles once, when all are in or the first failure comes. */
class AckCollector {
  readonly report: Promise<PublishReport>;
  private settle!: { resolve: (report: PublishReport) => void; reject: (error: Error) => void };
  private received = 0;
  private duplicates = 0;

  constructor(private readonly expected: number) {
    this.report = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  acknowledged(duplicate: boolean): void {
    this.received++;
    if (duplicate) this.duplicates++;
    if (this.received === this.expected)
      this.settle.resolve({ stored: this.expected - this.duplicates, duplicates: this.duplicates });
  }

  fail(error: Error): void {
    this.settle.reject(error);
  }
}
