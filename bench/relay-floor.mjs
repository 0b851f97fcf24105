// The relay's floor: the CPU a process with nothing else in it spends to publish PlantCreated
// events to JetStream as the relay must (each its own message, with its event id as
// Nats-Msg-Id for the stream's duplicate window, and one acknowledgement each), pipelined in
// batches of 256 as the relay does. No database, no domain objects, no HTTP: what is left is
// the JetStream client and the socket, which any relay of every event pays. Run by `pnpm bench`
// (BENCH_NATS_URL with BENCH_ONLY=…,quiet), pinned to the servers' CPU; runnable alone:
//   node bench/relay-floor.mjs nats://127.0.0.1:4222 [events=100000]
// Prints one JSON line: { events, cpuUsPerEvent }. Uses a scratch stream, deleted afterwards.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const messaging = createRequire(new URL('../packages/adapters-messaging/package.json', import.meta.url));
const { connect, createInbox, headers } = await import(messaging.resolve('@nats-io/transport-node'));
const { jetstreamManager } = await import(messaging.resolve('@nats-io/jetstream'));

const [url, eventsArg = '100000'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node bench/relay-floor.mjs <nats-url> [events]');
  process.exit(2);
}
const EVENTS = Number(eventsArg);
const BATCH = 256;
const WARMUP_EVENTS = 10_000;

const connection = await connect({ servers: url, name: 'plantstore-bench-relay-floor' });
const manager = await jetstreamManager(connection);
const stream = `BENCH_RELAY_FLOOR_${process.pid}`;
const subject = `bench.relay-floor.${process.pid}`;
await manager.streams.add({ name: stream, subjects: [subject], storage: 'file', duplicate_window: 120e9 });

const inbox = createInbox();
let waiting;
connection.subscribe(`${inbox}.>`, {
  callback: (_error, msg) => {
    const ack = msg.json();
    if (ack.error) waiting.reject(new Error(ack.error.description));
    else if (--waiting.left === 0) waiting.resolve();
  },
});

let sent = 0;
function publishBatch(size) {
  return new Promise((resolve, reject) => {
    waiting = { left: size, resolve, reject };
    const prefix = `${inbox}.${sent}`;
    for (let i = 0; i < size; i++, sent++) {
      const event = {
        type: 'PlantCreated',
        eventId: randomUUID(),
        plantId: String(1_000_000_000_000 + sent),
        name: `plant ${sent}`,
        createdAt: new Date().toISOString(),
      };
      const messageHeaders = headers();
      messageHeaders.set('Nats-Msg-Id', event.eventId);
      connection.publish(subject, JSON.stringify(event), { reply: `${prefix}.${i}`, headers: messageHeaders });
    }
  });
}

async function publish(events) {
  for (let left = events; left > 0; left -= BATCH) await publishBatch(Math.min(BATCH, left));
}

try {
  await publish(WARMUP_EVENTS);
  const before = process.cpuUsage();
  await publish(EVENTS);
  const { user, system } = process.cpuUsage(before);
  console.log(JSON.stringify({ events: EVENTS, cpuUsPerEvent: (user + system) / EVENTS }));
} finally {
  await manager.streams.delete(stream).catch(() => undefined);
  await connection.close();
}
