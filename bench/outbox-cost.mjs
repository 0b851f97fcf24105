// What the PlantCreated outbox costs the store, apart from the broker: the trigger's row per
// plant (inserts with events on minus the same inserts with events off) and the relay's read,
// serialisation and delete per event (relaying into a publish that only serialises). Both
// through the built adapters, on SQLite in the given directory, 4 interleaved rounds, medians.
// Run by `pnpm bench` beside bench/relay-floor.mjs; runnable alone:
//   node bench/outbox-cost.mjs [directory=/tmp]
// Prints one JSON line: { plants, triggerUsPerPlant, relayUsPerEvent }.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const api = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { openDataSource, parseDatabaseUrl, SqlPlantRepository, SqlPlantEventOutbox } = await import(
  api.resolve('@plantstore/adapters-persistence')
);
const { Plant } = await import(api.resolve('@plantstore/domain'));

const PLANTS = 51_200;
const BATCH = 256;
const ROUNDS = 4;
const directory = mkdtempSync(join(process.argv[2] ?? tmpdir(), 'plantstore-outbox-cost-'));
const provenance = { createdAt: new Date() };
let nextId = 1;

function plantBatches() {
  return Array.from({ length: PLANTS / BATCH }, () =>
    Array.from({ length: BATCH }, () => {
      const id = nextId++;
      return Plant.parse({ id: String(id), name: `plant ${id}`, tag: 'succulent' }).plant;
    }),
  );
}

const cpuUsSince = (start) => {
  const { user, system } = process.cpuUsage(start);
  return user + system;
};

async function round(eventsOn) {
  const dataSource = await openDataSource(parseDatabaseUrl(`sqlite:${join(directory, 'store.sqlite')}`, 'unused'));
  try {
    const plants = new SqlPlantRepository(dataSource);
    const outbox = new SqlPlantEventOutbox(dataSource);
    if (eventsOn) await outbox.enableEvents();
    const batches = plantBatches();
    const inserting = process.cpuUsage();
    for (const batch of batches) await plants.insertAllIfAbsent(batch, provenance);
    const insertUs = cpuUsSince(inserting) / PLANTS;
    if (!eventsOn) return { insertUs };
    let relayed = 0;
    const relaying = process.cpuUsage();
    for (let n = -1; n !== 0; relayed += n)
      n = await outbox.relay(BATCH, async (events) => {
        for (const event of events) JSON.stringify(event);
      });
    return { insertUs, relayUs: cpuUsSince(relaying) / relayed };
  } finally {
    await dataSource.destroy();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(directory, `store.sqlite${suffix}`), { force: true });
  }
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
try {
  const off = [];
  const on = [];
  for (let i = 0; i < ROUNDS; i++) {
    off.push((await round(false)).insertUs);
    on.push(await round(true));
  }
  console.log(
    JSON.stringify({
      plants: PLANTS,
      triggerUsPerPlant: median(on.map((r) => r.insertUs)) - median(off),
      relayUsPerEvent: median(on.map((r) => r.relayUs)),
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
