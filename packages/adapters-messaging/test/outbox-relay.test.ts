import { OutboxRelay, type PlantEventPublisher, type PublishReport } from '@plantstore/adapters-messaging';
import { Plant, PlantCreated } from '@plantstore/domain';
import { MemoryOutbox } from './support/memory-outbox.js';

function event(n: number): PlantCreated {
  const parsed = Plant.parse({ id: String(n), name: `plant ${n}` });
  if (!parsed.ok) throw new Error('invalid test plant');
  return PlantCreated.of(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, parsed.plant, new Date(0));
}

/** A broker that is down for its first `failures` publishes, recording when each attempt came. */
class FlakyBroker implements PlantEventPublisher {
  readonly stored: string[] = [];
  readonly attempts: number[] = [];
  closed = false;
  constructor(private failures: number) {}
  recover(): void {
    this.failures = 0;
  }
  publish(events: readonly PlantCreated[]): Promise<PublishReport> {
    this.attempts.push(Date.now());
    if (this.failures-- > 0) return Promise.reject(new Error('NATS is down'));
    this.stored.push(...events.map((e) => e.eventId));
    return Promise.resolve({ stored: events.length, duplicates: 0 });
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

const quiet = { warn: () => undefined, info: () => undefined };
const options = { batchSize: 2, idlePollMs: 5, initialBackoffMs: 10, maxBackoffMs: 40 };

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('OutboxRelay', () => {
  it('publishes every event once, in outbox order, batch by batch', async () => {
    const outbox = new MemoryOutbox([1, 2, 3, 4, 5].map(event));
    const broker = new FlakyBroker(0);
    const relay = new OutboxRelay(outbox, () => Promise.resolve(broker), quiet, options);
    relay.start();
    await until(() => outbox.pending.length === 0);
    await relay.stop();
    expect(broker.stored).toEqual([1, 2, 3, 4, 5].map((n) => event(n).eventId));
    expect(relay.status).toEqual({ published: 5, duplicates: 0, failures: 0 });
    expect(broker.closed).toBe(true);
  });

  it('keeps the events while the broker fails and retries with a doubling backoff capped at the maximum', async () => {
    const outbox = new MemoryOutbox([event(1)]);
    const broker = new FlakyBroker(5);
    const warnings: string[] = [];
    const relay = new OutboxRelay(
      outbox,
      () => Promise.resolve(broker),
      { warn: (line) => warnings.push(line), info: () => undefined },
      options,
    );
    relay.start();
    await until(() => outbox.pending.length === 0);
    await relay.stop();
    expect(broker.stored).toEqual([event(1).eventId]);
    expect(relay.status.failures).toBe(5);
    // One warning per outage, not per attempt.
    expect(warnings).toHaveLength(1);
    const gaps = broker.attempts.slice(1).map((at, i) => at - broker.attempts[i]!);
    // 10, 20, 40, 40, 40 ms (timers fire late, never early).
    expect(gaps.map((gap, i) => gap >= [10, 20, 40, 40, 40][i]! - 1)).toEqual([true, true, true, true, true]);
    expect(Math.max(...gaps)).toBeLessThan(1_000);
  });

  it('stops while still waiting for its first connection, and closes that connection when it comes', async () => {
    const broker = new FlakyBroker(0);
    let connected!: (publisher: PlantEventPublisher) => void;
    const relay = new OutboxRelay(
      new MemoryOutbox([event(1)]),
      () => new Promise((resolve) => (connected = resolve)),
      quiet,
      options,
    );
    relay.start();
    await relay.stop();
    connected(broker);
    await until(() => broker.closed);
    expect(broker.closed).toBe(true);
    expect(broker.stored).toEqual([]);
  });

  it('retries at once when the broker says its connection is back, not after the backoff in progress', async () => {
    const outbox = new MemoryOutbox([event(1)]);
    const broker = new FlakyBroker(Number.POSITIVE_INFINITY);
    let reconnected: () => void = () => undefined;
    const reconnecting = Object.assign(broker, { onReconnect: (listener: () => void) => (reconnected = listener) });
    const slow = { ...options, initialBackoffMs: 60_000, maxBackoffMs: 60_000 };
    const relay = new OutboxRelay(outbox, () => Promise.resolve(reconnecting), quiet, slow);
    relay.start();
    await until(() => broker.attempts.length === 1);

    // The broker is back: the relay, sleeping out a minute of backoff, tries again now and succeeds.
    broker.recover();
    reconnected();
    await until(() => outbox.pending.length === 0);
    await relay.stop();
    expect(broker.attempts).toHaveLength(2);
    expect(broker.stored).toEqual([event(1).eventId]);
  });
});
