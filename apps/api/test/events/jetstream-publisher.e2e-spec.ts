import { JetStreamPlantEventPublisher } from '@plantstore/adapters-messaging';
import { Plant, PlantCreated } from '@plantstore/domain';
import { natsPresent, startNatsProcess, type NatsProcess } from '../../../../test-support/nats-process.js';

function event(n: number): PlantCreated {
  const parsed = Plant.parse({ id: String(n), name: `plant ${n}` });
  if (!parsed.ok) throw new Error('invalid test plant');
  return PlantCreated.of(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, parsed.plant, new Date(0));
}

function events(from: number, count: number): PlantCreated[] {
  return Array.from({ length: count }, (_, i) => event(from + i));
}

// Without nats-server the suite is listed among the skipped at the end of the run (natsPresent).
const describeWithNats = natsPresent() ? describe : describe.skip;

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

  it('stores every event of a batch, and counts a batch published again as duplicates', async () => {
    const batch = events(1, 300);
    await expect(publisher.publish(batch)).resolves.toEqual({ stored: 300, duplicates: 0 });
    await expect(publisher.publish(batch)).resolves.toEqual({ stored: 0, duplicates: 300 });
  });

  it('counts a batch that is half old, half new, event by event', async () => {
    await expect(publisher.publish(events(1_001, 50))).resolves.toEqual({ stored: 50, duplicates: 0 });
    await expect(publisher.publish(events(1_026, 50))).resolves.toEqual({ stored: 25, duplicates: 25 });
  });

  it('keeps concurrent batches apart: each is answered with its own counts', async () => {
    const reports = await Promise.all([
      publisher.publish(events(2_001, 100)),
      publisher.publish(events(3_001, 100)),
      publisher.publish(events(2_001, 100)),
    ]);
    expect(reports.map((r) => r.stored + r.duplicates)).toEqual([100, 100, 100]);
    expect(reports[0].stored + reports[2].stored).toBe(100);
    expect(reports[1]).toEqual({ stored: 100, duplicates: 0 });
  });

  it('answers an empty batch without sending anything', async () => {
    await expect(publisher.publish([])).resolves.toEqual({ stored: 0, duplicates: 0 });
  });

  it('fails a batch at once when NATS stops, instead of waiting out the publish timeout', async () => {
    await nats.stop();
    const started = Date.now();
    await expect(publisher.publish(events(4_001, 10))).rejects.toThrow(/NATS connection/);
    expect(Date.now() - started).toBeLessThan(4_000);
    await nats.restart();
  });
});
