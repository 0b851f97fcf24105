import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { testEngines, type TestDatabase, type TestEngine } from '../support/engines.js';
import { natsPresent, startNatsProcess, type NatsProcess } from '../../../../test-support/nats-process.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { CLI_JS, createTokenWithCli, runCli } from '../../../../test-support/built-cli.js';
import {
  createPlants,
  expectEveryPlantDeliveredOnce,
  idsFrom,
  metric,
  startCatalogue,
  storedPlants,
  tableIds,
  type RunningCatalogue,
} from './plant-events.js';
import { getVia, keepAliveAgent } from '../support/http-post.js';
import { walk } from '../support/read-requests.js';
import { PlantLives } from './plant-lives.js';

async function readiness(url: string): Promise<{ status: number }> {
  const agent = keepAliveAgent(1);
  try {
    return await getVia(agent, url, '/readyz');
  } finally {
    agent.destroy();
  }
}

/*
 * Every change of a plant reaches the example consumer's projection exactly once, in version
 * order, whatever fails in between: the API killed between commit and publish, NATS down for
 * 10 s under load, two relays on one PostgreSQL database, an import killed and resumed, plants
 * changed and deleted while all that happens. Each test has its own database, its own
 * nats-server (own port, own store) and its own consumer.
 */

const IMPORTED = 20_000;

const hasNats = natsPresent();

interface World {
  database: TestDatabase;
  nats: NatsProcess;
  token: string;
  servers: BuiltServer[];
  catalogue: RunningCatalogue | undefined;
}

function useWorld(engine: TestEngine): () => World {
  let world: World | undefined;
  beforeEach(async () => {
    const database = await engine.createDatabase();
    const nats = await startNatsProcess();
    const { token } = await createTokenWithCli(database.url, 'events');
    world = { database, nats, token, servers: [], catalogue: undefined };
  }, 30_000);
  afterEach(async () => {
    if (world === undefined) return;
    const { servers, catalogue, nats, database } = world;
    world = undefined;
    try {
      await Promise.all(servers.map((server) => server.stop()));
      // Rejects when an event stopped the consumer (a plant it held already): the test fails with it.
      await catalogue?.close();
    } finally {
      await nats.remove();
      await database.drop();
    }
  }, 30_000);
  return () => world!;
}

async function startServer(world: World): Promise<BuiltServer> {
  const server = await startBuiltServer({ DATABASE_URL: world.database.url, NATS_URL: world.nats.url });
  world.servers.push(server);
  return server;
}

async function kill(server: BuiltServer): Promise<void> {
  const gone = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await gone;
}

/** The exact-once check: the stream holds every version of every plant, once each, and the projection the live plants. */
function expectEveryPlantAppliedOnce(world: World): Promise<void> {
  return expectEveryPlantDeliveredOnce(world.database, world.nats.url, world.catalogue!);
}

const engines = hasNats ? testEngines() : [];

describe.each(engines)('plant events to the example consumer on $name', (engine) => {
  const world = useWorld(engine);

  it('ends with the live plants of the store after creates, changes and deletions through SIGKILLs and a NATS outage', async () => {
    const w = world();
    // On PostgreSQL two instances relay the one outbox, so a plant's versions may reach the stream out of order.
    const servers = [await startServer(w), ...(engine.name === 'postgres' ? [await startServer(w)] : [])];
    w.catalogue = await startCatalogue(w.nats.url);
    const started = Date.now();
    const lives = new PlantLives((step) => servers[step % servers.length]!.url, w.token, idsFrom(0, 2_000), {
      concurrency: 8,
      pauseMs: 20,
      until: () => Date.now() - started > 16_000,
    });
    const restartFirst = async () => {
      const killed = servers[0]!;
      await kill(killed);
      servers[0] = await startServer(w);
    };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await restartFirst();
    await w.nats.stop();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Killed with changes waiting in the outbox for NATS.
    await restartFirst();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await w.nats.restart();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await restartFirst();
    await lives.done;
    expect(lives.unexpected()).toEqual({});
    expect(lives.statuses['DELETE again 204']).toBeGreaterThan(0);
    expect(lives.statuses['PUT If-Match 200']).toBeGreaterThan(0);
    await expectEveryPlantAppliedOnce(w);
    // What the API lists is what the catalogue holds (its versions are the table's: the API shows none).
    const stored = await storedPlants(w.database);
    const live = stored.filter((plant) => !plant.deleted).map((plant) => plant.id);
    expect((await walk(servers[0]!.url, w.token, '/plants?limit=1000')).ids.sort()).toEqual(live);
    expect(live.length).toBe(lives.begun.length - lives.deleted.length);
    expect(stored.filter((plant) => plant.deleted).length).toBe(lives.deleted.length);
  }, 120_000);

  it('delivers the plants committed before a SIGKILL, once NATS and the API are back', async () => {
    const w = world();
    // NATS down while the API commits: every event waits in the outbox when the API is killed.
    await w.nats.stop();
    let server = await startServer(w);
    const before = await createPlants(server.url, w.token, idsFrom(0, 300), 16);
    expect(before.statuses).toEqual({ '200': 300 });
    await kill(server);
    await w.nats.restart();
    // Killed again mid-load with NATS up: some batches committed, published or not, acknowledged or not.
    server = await startServer(w);
    w.catalogue = await startCatalogue(w.nats.url);
    let sent = 0;
    const load = createPlants(server.url, w.token, idsFrom(300, 3_000), 16, () => sent++ > 1_000);
    while (sent < 600) await new Promise((resolve) => setTimeout(resolve, 10));
    await kill(server);
    await load;
    await startServer(w);
    await expectEveryPlantAppliedOnce(w);
    expect((await tableIds(w.database)).length).toBeGreaterThan(300);
  }, 90_000);

  it('keeps creating while NATS is stopped for 10 s under load, and delivers everything after', async () => {
    const w = world();
    const server = await startServer(w);
    w.catalogue = await startCatalogue(w.nats.url);
    const started = Date.now();
    // Paced (at most 8 × 100 creates a second): the load outlasts the outage on any machine.
    const load = createPlants(server.url, w.token, idsFrom(0, 12_000), 8, () => Date.now() - started > 14_000, 10);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await w.nats.stop();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    // Readiness is about the database only: a NATS outage delays events, never creates.
    expect((await readiness(server.url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await w.nats.restart();
    const { statuses } = await load;
    // Creates never depend on NATS: every request was answered 200.
    expect(Object.keys(statuses)).toEqual(['200']);
    expect(await metric(server.url, 'plantstore_outbox_publish_failures_total')).toBeGreaterThan(0);
    await expectEveryPlantAppliedOnce(w);
    expect(await metric(server.url, 'plantstore_outbox_backlog_events')).toBe(0);
  }, 90_000);

  it('delivers an import killed mid-way and run again, once per plant', async () => {
    const w = world();
    await startServer(w);
    w.catalogue = await startCatalogue(w.nats.url);
    const directory = mkdtempSync(join(tmpdir(), 'plantstore-import-'));
    const file = join(directory, 'plants.ndjson');
    const lines = idsFrom(0, IMPORTED).map((id) => `{"id":${id},"name":"imported ${id}"}\n`);
    writeFileSync(file, lines.join(''));
    const args = [CLI_JS, 'plants', 'import', file, '--batch-size', '250', '--json'];
    // The first run reads stdin and gets just under a quarter of the file (its last batch stays
    // incomplete, so it waits for more input); it is killed once at least 10 of its batches
    // are committed.
    const partial = spawn(process.execPath, [CLI_JS, 'plants', 'import', '-', '--batch-size', '250'], {
      env: { ...process.env, DATABASE_URL: w.database.url },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const gone = new Promise((resolve) => partial.once('exit', resolve));
    // What the killed process never read breaks the pipe: expected.
    partial.stdin.on('error', () => undefined);
    partial.stdin.write(lines.slice(0, IMPORTED / 4 - 100).join(''));
    const killBy = Date.now() + 30_000;
    while ((await tableIds(w.database)).length < 2_500 && Date.now() < killBy)
      await new Promise((resolve) => setTimeout(resolve, 20));
    partial.kill('SIGKILL');
    await gone;
    const killedAt = (await tableIds(w.database)).length;
    // Whole batches only, and not all of them.
    expect(killedAt % 250).toBe(0);
    expect(killedAt).toBeGreaterThanOrEqual(2_500);
    expect(killedAt).toBeLessThan(IMPORTED / 4);
    const resumed = await runCli(args.slice(1), { DATABASE_URL: w.database.url }, 60_000);
    expect(resumed.code).toBe(0);
    await expectEveryPlantAppliedOnce(w);
    expect(w.catalogue.catalogue.count()).toBe(IMPORTED);
    rmSync(directory, { recursive: true, force: true });
  }, 120_000);

  if (engine.name === 'postgres') {
    it('publishes each event once with two relays on one database', async () => {
      const w = world();
      const servers = [await startServer(w), await startServer(w)];
      w.catalogue = await startCatalogue(w.nats.url);
      const loads = servers.map((server, i) => createPlants(server.url, w.token, idsFrom(i * 2_000, 2_000), 8));
      for (const { statuses } of await Promise.all(loads)) expect(statuses).toEqual({ '200': 2_000 });
      await expectEveryPlantAppliedOnce(w);
      const published = await Promise.all(servers.map((s) => metric(s.url, 'plantstore_outbox_published_total')));
      const duplicates = await Promise.all(servers.map((s) => metric(s.url, 'plantstore_outbox_duplicates_total')));
      // Each event went out from exactly one relay: JetStream stored 4,000 and dropped none as a repeat.
      expect(published[0]! + published[1]!).toBe(4_000);
      expect(duplicates).toEqual([0, 0]);
      expect(published.every((count) => count > 0)).toBe(true);
    }, 90_000);
  }
});

if (engines.length === 0) describe('plant events', () => it.todo('needs nats-server'));
