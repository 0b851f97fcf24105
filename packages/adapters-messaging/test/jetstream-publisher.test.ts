import { StorageType } from '@nats-io/jetstream';
import {
  DUPLICATE_WINDOW_MS,
  PLANT_CREATED_SUBJECT,
  PLANT_EVENT_SUBJECTS,
  PLANT_EVENTS_STREAM,
} from '@plantstore/adapters-messaging';
import { JetStreamPlantEventPublisher } from '@plantstore/adapters-messaging/jetstream';
import { natsPresent, startNatsProcess, type NatsProcess } from '../../../test-support/nats-process.js';
import { created, creates, deleted, updated } from './support/plant-events.js';
import {
  addPlantEventsStream,
  deletePlantEventsStream,
  plantEventsStreamConfig,
  storedMessageCount,
  storedPlantEvents,
} from './support/plant-events-stream.js';

// Without nats-server the suite is listed among the skipped at the end of the run; in CI it fails.
const describeWithNats = natsPresent('the JetStream publisher and relay on a real nats-server (adapters-messaging)')
  ? describe
  : describe.skip;

/*
 * The publisher sends a batch pipelined and counts JetStream's acknowledgements with one
 * handler: what the relay relies on is that a batch resolves only when every event is stored,
 * and that an event published again within the duplicate window is counted, not stored twice.
 */
describeWithNats('the JetStream publisher, on a nats-server of its own', () => {
  let nats: NatsProcess;
  let publisher: JetStreamPlantEventPublisher;

  beforeAll(async () => {
    nats = await startNatsProcess();
    publisher = await JetStreamPlantEventPublisher.connect(nats.url);
  });
  afterAll(async () => {
    await publisher?.close();
    await nats?.remove();
  });

  it('creates the stream as documented when it connects: every plant subject, file storage, a 2-minute duplicate window', async () => {
    expect(await plantEventsStreamConfig(nats.url)).toMatchObject({
      name: PLANT_EVENTS_STREAM,
      subjects: ['plantstore.plants.>'],
      storage: StorageType.File,
      duplicate_window: 2 * 60 * 1_000_000_000,
    });
    expect(DUPLICATE_WINDOW_MS).toBe(120_000);
  });

  it("stores each event once, on its kind's subject, with its event id as Nats-Msg-Id and its JSON as payload", async () => {
    const life = [created(9_001), updated(9_001), deleted(9_001)];
    await expect(publisher.publish(life)).resolves.toEqual({ stored: 3, duplicates: 0 });
    await expect(publisher.publish(life)).resolves.toEqual({ stored: 0, duplicates: 3 });
    const stored = (await storedPlantEvents(nats.url)).filter((message) => message.event['plantId'] === '9001');
    expect(stored.map(({ subject, msgId, event }) => ({ subject, msgId, event }))).toEqual([
      { subject: 'plantstore.plants.created', msgId: life[0]!.eventId, event: life[0]!.toJSON() },
      { subject: 'plantstore.plants.updated', msgId: life[1]!.eventId, event: life[1]!.toJSON() },
      { subject: 'plantstore.plants.deleted', msgId: life[2]!.eventId, event: life[2]!.toJSON() },
    ]);
  });

  it('stores every event of a batch, and counts a batch published again as duplicates', async () => {
    const batch = creates(1, 300);
    await expect(publisher.publish(batch)).resolves.toEqual({ stored: 300, duplicates: 0 });
    await expect(publisher.publish(batch)).resolves.toEqual({ stored: 0, duplicates: 300 });
  });

  it('counts a batch that is half old, half new, event by event', async () => {
    await expect(publisher.publish(creates(1_001, 50))).resolves.toEqual({ stored: 50, duplicates: 0 });
    await expect(publisher.publish(creates(1_026, 50))).resolves.toEqual({ stored: 25, duplicates: 25 });
  });

  it('keeps concurrent batches apart: each is answered with its own counts', async () => {
    const reports = await Promise.all([
      publisher.publish(creates(2_001, 100)),
      publisher.publish(creates(3_001, 100)),
      publisher.publish(creates(2_001, 100)),
    ]);
    expect(reports.map((r) => r.stored + r.duplicates)).toEqual([100, 100, 100]);
    expect(reports[0].stored + reports[2].stored).toBe(100);
    expect(reports[1]).toEqual({ stored: 100, duplicates: 0 });
  });

  it('answers an empty batch without sending anything', async () => {
    const before = await storedMessageCount(nats.url);
    await expect(publisher.publish([])).resolves.toEqual({ stored: 0, duplicates: 0 });
    expect(await storedMessageCount(nats.url)).toBe(before);
  });

  it('fails a batch whose stream was deleted, and makes the stream again for the next one', async () => {
    await deletePlantEventsStream(nats.url);
    await expect(publisher.publish(creates(5_001, 3))).rejects.toThrow(/no stream stored plantstore\.plants\.>/);
    await expect(publisher.publish(creates(5_001, 3))).resolves.toEqual({ stored: 3, duplicates: 0 });
    expect((await storedPlantEvents(nats.url)).map((message) => message.msgId)).toEqual(
      creates(5_001, 3).map((event) => event.eventId),
    );
  });

  it('fails a batch at once when NATS stops, instead of waiting out the publish timeout', async () => {
    await nats.stop();
    const started = Date.now();
    await expect(publisher.publish(creates(4_001, 10))).rejects.toThrow(/NATS connection/);
    expect(Date.now() - started).toBeLessThan(4_000);
    await nats.restart();
  });
});

/* A stream that was there before the relay: what the publisher changes of it, and what it leaves. */
describeWithNats('the JetStream publisher and a stream it did not make', () => {
  let nats: NatsProcess;
  let publisher: JetStreamPlantEventPublisher | undefined;

  beforeEach(async () => {
    nats = await startNatsProcess();
  });
  afterEach(async () => {
    await publisher?.close();
    await nats.remove();
  });

  it('gives a stream made when only creates had events every plant subject, keeping its limits', async () => {
    await addPlantEventsStream(nats.url, { subjects: [PLANT_CREATED_SUBJECT], max_msgs: 10_000 });
    publisher = await JetStreamPlantEventPublisher.connect(nats.url);
    expect(await plantEventsStreamConfig(nats.url)).toMatchObject({
      subjects: [PLANT_EVENT_SUBJECTS],
      max_msgs: 10_000,
    });
    await expect(publisher.publish([created(1), updated(1)])).resolves.toEqual({ stored: 2, duplicates: 0 });
  });

  it("uses an operator's stream with other limits as it is", async () => {
    const operators = {
      subjects: [PLANT_EVENT_SUBJECTS],
      storage: StorageType.Memory,
      duplicate_window: 10_000_000_000,
    };
    await addPlantEventsStream(nats.url, operators);
    publisher = await JetStreamPlantEventPublisher.connect(nats.url);
    await expect(publisher.publish([created(1)])).resolves.toEqual({ stored: 1, duplicates: 0 });
    expect(await plantEventsStreamConfig(nats.url)).toMatchObject(operators);
  });
});
