import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TcpProxy } from '../../../../test-support/tcp-proxy.js';
import { connectPostgres, type EngineName, type TestDatabase } from '../support/engines.js';
import { keepAliveAgent, postPlantVia } from '../support/http-post.js';
import type { NatsProcess } from '../../../../test-support/nats-process.js';
import { CLI_JS, runCli } from '../../../../test-support/built-cli.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { idsFrom, startCatalogue, type RunningCatalogue } from './plant-events.js';
import { PlantLives } from './plant-lives.js';

/*
 * The faults of the event stress rounds (plant-events.stress.e2e-spec.ts): each scenario
 * drives the built servers, the CLI and the test's nats-server through one kind of fault,
 * with its timings drawn at random, and leaves a server running to relay what is left.
 */

/** One round's world: its own database, nats-server and consumer. */
export interface StressWorld {
  readonly engine: EngineName;
  readonly database: TestDatabase;
  readonly nats: NatsProcess;
  readonly token: string;
  /** Every server started, for the cleanup. */
  readonly servers: BuiltServer[];
  catalogue: RunningCatalogue | undefined;
  proxy: TcpProxy | undefined;
  /** What the round drew and saw, printed with its result. */
  readonly facts: string[];
}

export interface Scenario {
  readonly name: string;
  readonly engines: readonly EngineName[];
  run(world: StressWorld): Promise<void>;
}

const PLANTS_PER_ROUND = 1_200;
/** A start may take long while the machine runs other suites beside the rounds. */
const START_WITHIN_MS = 60_000;
const REFUSED = 'refused';

function between(low: number, high: number): number {
  return low + Math.floor(Math.random() * (high - low + 1));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = between(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(20);
}

/** A create's body, the id as an exact JSON number. */
function bodyOf(id: bigint, refused = false): string {
  return `{"id":${id},"name":"${refused ? REFUSED : 'plant'} ${id}","tag":"stress"}`;
}

/** Started on this world's database and nats-server (`env` may override them), and kept for the cleanup. */
async function startServer(world: StressWorld, env: Record<string, string> = {}): Promise<BuiltServer> {
  const server = await startBuiltServer(
    { DATABASE_URL: world.database.url, NATS_URL: world.nats.url, ...env },
    { readyTimeoutMs: START_WITHIN_MS },
  );
  world.servers.push(server);
  return server;
}

async function kill(server: BuiltServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await gone;
}

/** How long a client keeps sending a create that got no answer or a 503: past any restart or outage of a round. */
const GIVE_UP_AFTER_MS = 60_000;

/** Sends every body until the server answers it with anything but 503, to whichever server `target()` names then. */
class Load {
  answered = 0;
  readonly statuses: Record<string, number> = {};
  readonly done: Promise<void>;

  constructor(target: () => string, token: string, bodies: readonly string[], concurrency: number, pauseMs = 0) {
    const agent = keepAliveAgent(concurrency);
    let next = 0;
    this.done = Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
          for (;;) {
            const status = await postPlantVia(agent, target(), token, body, 10_000).then(
              (answer) => String(answer.status),
              () => 'no answer',
            );
            // No answer (killed, cut) or 503: its outcome is unknown, so the client sends it again.
            const unknown = status === 'no answer' || status === '503';
            if (!unknown || Date.now() > giveUpAt) {
              this.count(unknown ? `gave up after ${status}` : status);
              this.answered++;
              break;
            }
            this.count(`retried after ${status}`);
            await sleep(100);
          }
          if (pauseMs > 0) await sleep(pauseMs);
        }
      }),
    ).then(() => agent.destroy());
  }

  private count(outcome: string): void {
    this.statuses[outcome] = (this.statuses[outcome] ?? 0) + 1;
  }
}

function plantBodies(): string[] {
  return idsFrom(0, PLANTS_PER_ROUND).map((id) => bodyOf(id));
}

/** Plants apart from the creates' that are changed and deleted meanwhile (plant-lives.ts). */
const LIVES_PER_ROUND = 300;

function plantLives(target: () => string, token: string): PlantLives {
  return new PlantLives(target, token, idsFrom(PLANTS_PER_ROUND, LIVES_PER_ROUND), { concurrency: 4, pauseMs: 5 });
}

/** The lives' answers in the round's facts; any answer a life should not get fails the round. */
async function livesOver(world: StressWorld, lives: PlantLives): Promise<void> {
  await lives.done;
  world.facts.push(`lives ${JSON.stringify(lives.statuses)}`);
  expect(lives.unexpected()).toEqual({});
}

/** The server SIGKILLed twice under load of creates and changes at random moments (NATS down meanwhile in half the rounds). */
const kills: Scenario = {
  name: 'kills',
  engines: ['sqlite', 'postgres'],
  async run(world) {
    const natsDown = Math.random() < 0.5;
    const killsAt = [between(50, 500), between(550, 1_100)];
    world.facts.push(`NATS ${natsDown ? 'down' : 'up'} meanwhile, kills after ${killsAt.join(' and ')} answers`);
    if (natsDown) await world.nats.stop();
    let server = await startServer(world);
    // Once a relay made the stream.
    if (!natsDown) world.catalogue = await startCatalogue(world.nats.url);
    const load = new Load(() => server.url, world.token, plantBodies(), 8);
    const lives = plantLives(() => server.url, world.token);
    for (const at of killsAt) {
      await until(() => load.answered >= at);
      await kill(server);
      server = await startServer(world);
    }
    await load.done;
    await livesOver(world, lives);
    if (natsDown) {
      await world.nats.restart();
      world.catalogue = await startCatalogue(world.nats.url);
    }
    world.facts.push(JSON.stringify(load.statuses));
  },
};

/** NATS stopped twice under load of creates and changes, for 1 to 4 s each, at random moments. */
const outages: Scenario = {
  name: 'NATS outages',
  engines: ['sqlite', 'postgres'],
  async run(world) {
    const server = await startServer(world);
    world.catalogue = await startCatalogue(world.nats.url);
    const load = new Load(() => server.url, world.token, plantBodies(), 4, 5);
    const lives = plantLives(() => server.url, world.token);
    for (let outage = 0; outage < 2; outage++) {
      const [after, lasting] = [between(200, 1_500), between(1_000, 4_000)];
      world.facts.push(`NATS stopped ${after} ms later for ${lasting} ms`);
      await sleep(after);
      await world.nats.stop();
      await sleep(lasting);
      await world.nats.restart();
    }
    await load.done;
    await livesOver(world, lives);
    world.facts.push(JSON.stringify(load.statuses));
  },
};

/** An import killed at a random moment and run again, while the server creates the same plants over HTTP. */
const importBesideCreates: Scenario = {
  name: 'import beside creates',
  engines: ['sqlite', 'postgres'],
  async run(world) {
    const server = await startServer(world);
    world.catalogue = await startCatalogue(world.nats.url);
    const directory = mkdtempSync(join(tmpdir(), 'plantstore-stress-import-'));
    try {
      const file = join(directory, 'plants.ndjson');
      // The import's plants and the HTTP creates' overlap by half, with the same content.
      writeFileSync(
        file,
        idsFrom(0, PLANTS_PER_ROUND)
          .map((id) => `${bodyOf(id)}\n`)
          .join(''),
      );
      const creates = idsFrom(PLANTS_PER_ROUND / 2, PLANTS_PER_ROUND).map((id) => bodyOf(id));
      const load = new Load(() => server.url, world.token, shuffled(creates), 4);
      const killAfter = between(100, 1_500);
      world.facts.push(`import killed after ${killAfter} ms`);
      const env = { ...process.env, DATABASE_URL: world.database.url };
      const first = spawn(process.execPath, [CLI_JS, 'plants', 'import', file, '--batch-size', '50'], {
        env,
        stdio: 'ignore',
      });
      const gone = new Promise((resolve) => first.once('exit', resolve));
      await sleep(killAfter);
      first.kill('SIGKILL');
      await gone;
      const again = await runCli(
        ['plants', 'import', file, '--batch-size', '50', '--json'],
        { DATABASE_URL: world.database.url },
        60_000,
      );
      world.facts.push(`import run again: exit ${again.code}`);
      await load.done;
      world.facts.push(JSON.stringify(load.statuses));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  },
};

/**
 * A trigger of the test refuses some plants, so their batches fail and the group commit writes
 * the rest row by row; the server is killed once meanwhile.
 */
const refusedRows: Scenario = {
  name: 'refused rows',
  engines: ['sqlite', 'postgres'],
  async run(world) {
    await refuseSomePlants(world.database);
    let server = await startServer(world);
    world.catalogue = await startCatalogue(world.nats.url);
    const bodies = idsFrom(0, PLANTS_PER_ROUND).map((id, i) => bodyOf(id, i % 10 === 3));
    const load = new Load(() => server.url, world.token, shuffled(bodies), 16);
    const killAt = between(100, 1_000);
    world.facts.push(`1 in 10 refused, kill after ${killAt} answers`);
    await until(() => load.answered >= killAt);
    await kill(server);
    server = await startServer(world);
    await load.done;
    world.facts.push(JSON.stringify(load.statuses));
  },
};

/** Two instances sending the same plants in different orders; one is killed and started again, NATS stops once. */
const twoInstances: Scenario = {
  name: 'two instances racing',
  engines: ['postgres'],
  async run(world) {
    const first = await startServer(world);
    let second = await startServer(world);
    world.catalogue = await startCatalogue(world.nats.url);
    const loads = [
      new Load(() => first.url, world.token, shuffled(plantBodies()), 8),
      new Load(() => second.url, world.token, shuffled(plantBodies()), 8),
    ];
    const [killAt, natsAfter] = [between(100, 1_000), between(200, 2_000)];
    world.facts.push(`second killed after ${killAt} answers, NATS stopped 2 s after ${natsAfter} ms`);
    const outage = (async () => {
      await sleep(natsAfter);
      await world.nats.stop();
      await sleep(2_000);
      await world.nats.restart();
    })();
    await until(() => loads[1]!.answered >= killAt);
    await kill(second);
    second = await startServer(world);
    await Promise.all([...loads.map((load) => load.done), outage]);
    world.facts.push(loads.map((load) => JSON.stringify(load.statuses)).join(' '));
  },
};

/**
 * Two instances reach PostgreSQL through a proxy that goes silent (answers withheld, so
 * statements may commit unseen until the query deadline cuts them) and refuses, at random
 * moments; their clients send again every create left without an answer.
 */
const lostAnswers: Scenario = {
  name: 'lost answers',
  engines: ['postgres'],
  async run(world) {
    const direct = new URL(world.database.url);
    const proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    world.proxy = proxy;
    await proxy.open();
    const proxied = new URL(world.database.url);
    proxied.port = String(proxy.port);
    const env = { DATABASE_URL: proxied.toString(), PG_STATEMENT_TIMEOUT_MS: '500', PG_CONNECT_TIMEOUT_MS: '1000' };
    const servers = [await startServer(world, env), await startServer(world, env)];
    world.catalogue = await startCatalogue(world.nats.url);
    const loads = servers.map((server) => new Load(() => server.url, world.token, shuffled(plantBodies()), 8, 2));
    for (const fault of ['silent', 'refusing', 'silent'] as const) {
      const [after, lasting] = [between(100, 1_000), between(600, 2_500)];
      world.facts.push(`${fault} ${after} ms later for ${lasting} ms`);
      await sleep(after);
      if (fault === 'silent') proxy.blackHole();
      else await proxy.close();
      await sleep(lasting);
      await proxy.open();
    }
    await Promise.all(loads.map((load) => load.done));
    world.facts.push(loads.map((load) => JSON.stringify(load.statuses)).join(' '));
  },
};

export const SCENARIOS: readonly Scenario[] = [
  kills,
  outages,
  importBesideCreates,
  refusedRows,
  twoInstances,
  lostAnswers,
];

/** A BEFORE INSERT trigger of the test's own that fails the statement inserting a plant named "refused …". */
async function refuseSomePlants(database: TestDatabase): Promise<void> {
  if (database.engine === 'sqlite') {
    const db = new Database(database.name);
    try {
      db.exec(`CREATE TRIGGER refuse_some BEFORE INSERT ON plant WHEN NEW.name LIKE '${REFUSED}%'
        BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    } finally {
      db.close();
    }
    return;
  }
  const client = await connectPostgres(database.url);
  try {
    await client.query(`CREATE FUNCTION refuse_some() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name LIKE '${REFUSED}%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await client.query('CREATE TRIGGER refuse_some BEFORE INSERT ON plant FOR EACH ROW EXECUTE FUNCTION refuse_some()');
  } finally {
    await client.end();
  }
}
