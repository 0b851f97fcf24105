import type { PlantEvent } from '@plantstore/domain';
import {
  OutboxRelay,
  type PlantEventPublisher,
  type PlantEventSource,
  type RelayCounts,
  type RelayLog,
} from './outbox-relay.js';

/** What the relay needs of a store's outbox (the persistence adapter's SqlPlantEventOutbox has it). */
export interface PlantEventOutbox extends PlantEventSource {
  relay(limit: number, publish: (events: readonly PlantEvent[]) => Promise<void>): Promise<number>;
  /** Events for every plant stored from now on; says whether that changed anything. */
  enableEvents(): Promise<{ readonly changed: boolean; readonly plants: number }>;
  backlog(): Promise<{ readonly events: number; readonly oldestCreatedAt: Date | undefined }>;
}

export interface PlantEventRelayConfig {
  /** NATS servers, comma-separated. */
  readonly natsUrl: string;
  readonly outbox: PlantEventOutbox;
  readonly log: RelayLog;
}

/** What an operator reads of the relay: the outbox's backlog and this instance's counts. */
export interface PlantEventRelayStatus {
  backlog(): ReturnType<PlantEventOutbox['backlog']>;
  counts(): RelayCounts;
}

/**
 * The NATS client is loaded only by a server that relays: one without NATS_URL never needs it
 * (6.6 MB of private memory, docs/decisions.md#performance).
 */
async function connectJetStream(natsUrl: string): Promise<PlantEventPublisher> {
  const { JetStreamPlantEventPublisher } = await import('./jetstream-publisher.js');
  return JetStreamPlantEventPublisher.connect(natsUrl);
}

/**
 * The outbox relay of one server (docs/operations.md#plant-events): `start` turns the store's
 * events on (a new store keeps none until asked) and begins publishing; `stop` ends after the
 * batch in flight. A NATS outage delays events, never the API.
 */
export class PlantEventRelay {
  private readonly relay: OutboxRelay;
  readonly status: PlantEventRelayStatus;

  constructor(private readonly config: PlantEventRelayConfig) {
    this.relay = new OutboxRelay(config.outbox, () => connectJetStream(config.natsUrl), config.log);
    this.status = { backlog: () => config.outbox.backlog(), counts: () => this.relay.status };
  }

  async start(): Promise<void> {
    const { changed, plants } = await this.config.outbox.enableEvents();
    if (changed) this.config.log.info(`plant events switched on; the ${plants} plant(s) stored before get no event`);
    this.relay.start();
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }
}
