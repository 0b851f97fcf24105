import {
  DEFAULT_RELAY_OPTIONS,
  OutboxRelay,
  PlantEventRelay,
  type PlantEventOutbox,
} from '@plantstore/adapters-messaging';
import { JetStreamPlantEventPublisher } from '@plantstore/adapters-messaging/jetstream';
import { natsPresent, startNatsProcess, type NatsProcess } from '../../../test-support/nats-process.js';
import { MemoryOutbox } from './support/memory-outbox.js';
import { created, creates, lives } from './support/plant-events.js';
import { storedPlantEvents } from './support/plant-events-stream.js';

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

function collectingLog(): { warnings: string[]; infos: string[]; warn(m: string): void; info(m: string): void } {
  const log = {
    warnings: [] as string[],
    infos: [] as string[],
    warn: (message: string) => void log.warnings.push(message),
    info: (message: string) => void log.infos.push(message),
  };
  return log;
}

// Without nats-server the suite is listed among the skipped at the end of the run; in CI it fails.
const describeWithNats = natsPresent('the JetStream publisher and relay on a real nats-server (adapters-messaging)')
  ? describe
  : describe.skip;

/*
 * The relay with its real publisher against a nats-server of the test's own, with the default
 * timings (5 s publish timeout, backoff doubling to 5 s), as a server runs it.
 */
describeWithNats('the outbox relay on a real JetStream', () => {
  let nats: NatsProcess;
  let relay: OutboxRelay | undefined;

  beforeEach(async () => {
    nats = await startNatsProcess();
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await nats.remove();
  });

  function startRelay(outbox: MemoryOutbox, log = collectingLog()): OutboxRelay {
    relay = new OutboxRelay(outbox, () => JetStreamPlantEventPublisher.connect(nats.url), log, DEFAULT_RELAY_OPTIONS);
    relay.start();
    return relay;
  }

  it("drains the outbox in its order, batch by batch: the stream holds each event once, in the outbox's order", async () => {
    // Three full batches and a part of one, creates, updates and deletions interleaved.
    const events = lives(1, 300);
    const outbox = new MemoryOutbox([...events]);
    const running = startRelay(outbox);
    expect(await until(() => outbox.pending.length === 0, 20_000)).toBe(true);
    expect(running.status).toEqual({ published: 900, duplicates: 0, failures: 0 });
    expect((await storedPlantEvents(nats.url)).map((message) => message.msgId)).toEqual(
      events.map((event) => event.eventId),
    );
  });

  it('publishes a batch again when the store could not forget it, and the stream keeps one of each', async () => {
    const events = creates(1, 10);
    const outbox = new MemoryOutbox([...events]);
    outbox.failToForget(1);
    const running = startRelay(outbox);
    expect(await until(() => outbox.pending.length === 0, 20_000)).toBe(true);
    // JetStream stored them the first time and dropped the second publication by their ids.
    expect(running.status).toEqual({ published: 10, duplicates: 10, failures: 1 });
    expect((await storedPlantEvents(nats.url)).map((message) => message.msgId)).toEqual(
      events.map((event) => event.eventId),
    );
  });

  it('waits for a NATS that is not up yet, keeping the events, and publishes them once it answers', async () => {
    await nats.stop();
    const outbox = new MemoryOutbox(creates(1, 5));
    const log = collectingLog();
    const running = startRelay(outbox, log);
    expect(await until(() => running.status.failures >= 3, 10_000)).toBe(true);
    expect(outbox.pending).toHaveLength(5);
    expect(log.warnings).toHaveLength(1);

    await nats.restart();
    expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);
    expect(running.status).toMatchObject({ published: 5, duplicates: 0 });
    expect(await storedPlantEvents(nats.url)).toHaveLength(5);
    expect(log.infos).toEqual([expect.stringMatching(/^publishing plant events again after \d+ failed attempts$/)]);
  });

  it('fails fast while NATS is down and publishes again within a second of it answering', async () => {
    const outbox = new MemoryOutbox();
    const log = collectingLog();
    const running = startRelay(outbox, log);
    outbox.pending.push(created(1));
    expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);

    await nats.stop();
    outbox.pending.push(created(2), created(3));
    // Publishes into the dropped connection fail at once (not after the 5 s publish timeout):
    // six failures take the backoff to 3.2 s, the relay sleeping when NATS comes back.
    expect(await until(() => running.status.failures >= 6, 15_000)).toBe(true);
    expect(log.warnings).toHaveLength(1);

    await nats.restart();
    const answering = performance.now();
    expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);
    const resumedAfterMs = performance.now() - answering;
    console.log(`relay published again ${resumedAfterMs.toFixed(0)} ms after NATS answered`);
    // The client reconnects every 500 ms (plus jitter); before, the relay slept out its backoff (3.2 s here).
    expect(resumedAfterMs).toBeLessThan(2_000);

    // JetStream acknowledged each event as stored, once (a resent one would count as a duplicate).
    expect(running.status).toMatchObject({ published: 3, duplicates: 0 });
  }, 60_000);
});

/** A store's outbox whose events are off until the relay turns them on, as a new SQL store's are. */
class SwitchedOutbox extends MemoryOutbox implements PlantEventOutbox {
  enabled = false;
  async enableEvents() {
    const changed = !this.enabled;
    this.enabled = true;
    return { changed, plants: 4 };
  }
  async backlog() {
    return { events: this.pending.length, oldestCreatedAt: undefined };
  }
}

describeWithNats('PlantEventRelay, the relay a server runs', () => {
  let nats: NatsProcess;

  beforeAll(async () => {
    nats = await startNatsProcess();
  });
  afterAll(async () => {
    await nats?.remove();
  });

  it("turns the store's events on as it starts, says what that leaves out, relays, and reports its backlog and counts", async () => {
    const outbox = new SwitchedOutbox(creates(1, 3));
    const log = collectingLog();
    const relay = new PlantEventRelay({ natsUrl: nats.url, outbox, log });
    await relay.start();
    try {
      expect(outbox.enabled).toBe(true);
      expect(log.infos).toEqual(['plant events switched on; the 4 plant(s) stored before get no event']);
      expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);
      expect(await relay.status.backlog()).toEqual({ events: 0, oldestCreatedAt: undefined });
      expect(relay.status.counts()).toEqual({ published: 3, duplicates: 0, failures: 0 });
    } finally {
      await relay.stop();
    }
    expect(await storedPlantEvents(nats.url)).toHaveLength(3);
  });
});
