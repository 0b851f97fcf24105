import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TcpProxy } from '../../../test-support/tcp-proxy.js';
import { createTokenWithCli, storedPlants } from '../../../test-support/built-cli.js';
import { startBuiltServer, type BuiltServer } from '../../../test-support/built-server.mjs';
import { freePort } from '../../../test-support/free-port.mjs';
import {
  createPostgresDatabase,
  postgresAdminUrl,
  reportIfPostgresSkipped,
} from '../../../test-support/postgres-databases.js';
import { PlantStoreApiError, PlantStoreClient, PlantStoreDeadlineError, PlantStoreNetworkError } from '../src/index.js';

/**
 * The client against the built server (`node apps/api/dist/main.js`), on SQLite and, when
 * PostgreSQL is enabled (CI), on PostgreSQL: exact ids, typed errors from real Error bodies,
 * and "exactly one plant, whatever the network does" across a server crash mid-call.
 */
interface Engine {
  readonly name: string;
  createDatabase(): Promise<{ url: string; drop(): Promise<void> }>;
}

const sqlite: Engine = {
  name: 'SQLite',
  async createDatabase() {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-client-e2e-'));
    return {
      url: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};
const adminUrl = postgresAdminUrl();
const engines: Engine[] =
  adminUrl === undefined
    ? [sqlite]
    : [
        sqlite,
        { name: 'PostgreSQL', createDatabase: () => createPostgresDatabase(adminUrl, 'plantstore_client_e2e_') },
      ];
reportIfPostgresSkipped();

/** Short waits: a restart on a busy machine is bounded by the call's deadline, not by a count. */
const PATIENT = { baseDelayMs: 50, maxDelayMs: 500 };

it('with nothing listening at the address, a create keeps trying until its deadline, then ends with a PlantStoreDeadlineError', async () => {
  const client = new PlantStoreClient({
    baseUrl: `http://127.0.0.1:${await freePort()}`,
    token: `pst_${'n'.repeat(43)}`,
  });
  const started = Date.now();
  const error = await client
    .createPlant({ id: 1n, name: 'Fern' }, { deadline: started + 3_000 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PlantStoreDeadlineError);
  expect(Date.now()).toBeGreaterThanOrEqual(started + 3_000); // not before the deadline it was given
  const { attempts, elapsedMs, cause, message } = error as PlantStoreDeadlineError;
  expect(attempts).toBeGreaterThan(1);
  expect(cause).toBeInstanceOf(PlantStoreNetworkError);
  expect(message).toContain(`gave up after ${Math.round(elapsedMs)} ms and ${attempts} attempts: its deadline passed`);
});

describe.each(engines)('@plantstore/client against the built server on $name', (engine) => {
  let database: { url: string; drop(): Promise<void> };
  let token: string;
  let server: BuiltServer | undefined;

  beforeAll(async () => {
    database = await engine.createDatabase();
    ({ token } = await createTokenWithCli(database.url, 'client-e2e'));
  }, 60_000);
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const start = (port?: number) => startBuiltServer({ DATABASE_URL: database.url }, port === undefined ? {} : { port });

  it('creates a plant whose int64 id is stored with every digit, and an identical create answers 200 again', async () => {
    server = await start();
    const client = new PlantStoreClient({ baseUrl: server.url, token });
    const plant = { id: 9223372036854775807n, name: 'Monstera deliciosa', tag: 'aroid' };
    expect(await client.createPlant(plant)).toEqual({ name: 'Monstera deliciosa', tag: 'aroid' });
    expect(await client.createPlant({ ...plant, id: '9223372036854775807' })).toEqual({
      name: 'Monstera deliciosa',
      tag: 'aroid',
    });
    await client.createPlant({ id: '9007199254740993', name: 'just above 2^53' });
    await server.stop();
    const stored = await storedPlants(database.url);
    expect(stored.filter((p) => p.id === '9223372036854775807')).toEqual([
      { id: '9223372036854775807', name: 'Monstera deliciosa', tag: 'aroid' },
    ]);
    expect(stored.filter((p) => p.id === '9007199254740993')).toEqual([
      { id: '9007199254740993', name: 'just above 2^53' },
    ]);
  });

  it('surfaces Error bodies as typed errors: 409 for another plant under the id, 401 for a bad token, 400 with every field problem', async () => {
    server = await start();
    const client = new PlantStoreClient({ baseUrl: server.url, token });
    await client.createPlant({ id: 41n, name: 'Fern' });
    await expect(client.createPlant({ id: 41n, name: 'Not a fern' })).rejects.toMatchObject({
      status: 409,
      code: 40901,
    });

    const stranger = new PlantStoreClient({ baseUrl: server.url, token: `pst_${'x'.repeat(43)}` });
    const refused = await stranger.createPlant({ id: 42n, name: 'Fern' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlantStoreApiError);
    expect(refused).toMatchObject({ status: 401, code: 40102 });

    const invalid = await client.createPlant({ id: 43n, name: '', tag: '' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 40003 });
    expect((invalid as Error).message).toMatch(/name/);
    expect((invalid as Error).message).toMatch(/tag/);
  });

  it('reads a plant back by id and walks every page of a list, ids exact at the int64 edges and beyond 2^53', async () => {
    server = await start();
    const client = new PlantStoreClient({ baseUrl: server.url, token });
    // Ids the other tests of this file do not use: the database is shared.
    const ids = [-9223372036854775808n, -1n, 0n, 9007199254740994n, 9007199254740995n, 9223372036854775806n];
    for (const id of ids) await client.createPlant({ id, name: `edge ${id}`, tag: 'edge-walk' });
    expect(await client.getPlant(9007199254740995n)).toEqual({
      plant: { name: 'edge 9007199254740995', tag: 'edge-walk' },
      etag: expect.stringMatching(/^"[^"]+"$/) as unknown,
    });
    expect((await client.getPlant('-9223372036854775808')).plant).toEqual({
      name: 'edge -9223372036854775808',
      tag: 'edge-walk',
    });
    await expect(client.getPlant(9007199254740996n)).rejects.toMatchObject({ status: 404, code: 40402 });

    const pages: bigint[][] = [];
    for await (const page of client.listPlantPages({ tags: ['edge-walk'], limit: 2 }))
      pages.push(page.map((p) => p.id));
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4, 6), []]);
    const listed = [];
    for await (const plant of client.listPlants({ tags: ['edge-walk'], limit: 4 })) listed.push(plant);
    expect(listed).toEqual(ids.map((id) => ({ id, name: `edge ${id}`, tag: 'edge-walk' })));
  });

  it('follows the change feed live, and across a server SIGKILLed and restarted: it misses nothing and sees nothing twice', async () => {
    const port = await freePort();
    server = await start(port);
    const writer = new PlantStoreClient({ baseUrl: server.url, token, retry: PATIENT });
    const follower = new PlantStoreClient({ baseUrl: server.url, token, retry: PATIENT });
    // Ids the other tests of this file do not use: the database, and so the feed, is shared.
    const [first, second] = [9_200_000_000_000_000_001n, -9_200_000_000_000_000_002n];
    const seen: string[] = [];
    const copy = new Map<bigint, string>();
    let caughtUp = false;
    const following = (async () => {
      for await (const batch of follower.followChanges({ signal: AbortSignal.timeout(90_000) })) {
        caughtUp ||= batch.caughtUp;
        for (const change of batch.changes) {
          if (change.id !== first && change.id !== second) continue;
          const state = `v${change.version} ${change.deleted ? 'deleted' : change.name}`;
          seen.push(`${change.id} ${state}`);
          copy.set(change.id, state);
        }
        if (copy.get(first) === 'v2 Fern, tall' && copy.get(second) === 'v2 deleted') return;
      }
    })();
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await until(() => caughtUp);
    await writer.createPlant({ id: first, name: 'Fern' });
    await until(() => seen.length === 1);
    expect(seen).toEqual([`${first} v1 Fern`]);

    await server.stop('SIGKILL');
    server = await start(port);
    await writer.createPlant({ id: second, name: 'Moss' });
    await writer.updatePlant(first, { name: 'Fern, tall' });
    await writer.deletePlant(second);
    await following;
    // Each plant at its latest state; a state passed over while the stream was down (Moss) may be skipped, never repeated.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((entry) => entry.startsWith(`${first} `))).toEqual([
      `${first} v1 Fern`,
      `${first} v2 Fern, tall`,
    ]);
    expect(seen.filter((entry) => entry.startsWith(`${second} `)).at(-1)).toBe(`${second} v2 deleted`);
  }, 120_000);

  it.each([
    ['the request never reached it', 'before-request'],
    ['it had committed the plant but not answered', 'after-answer'],
  ] as const)(
    'a server SIGKILLed when %s and restarted on the same port: the call ends 200 and exactly one row holds the id',
    async (_, when) => {
      const port = await freePort();
      server = await start(port);
      const proxy = new TcpProxy({ host: '127.0.0.1', port });
      await proxy.open();
      const crashed = proxy.cutNextExchange(when, () => server!.stop('SIGKILL'));
      try {
        const client = new PlantStoreClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, token, retry: PATIENT });
        const id = when === 'after-answer' ? 9_100_000_000_000_000_001n : 9_100_000_000_000_000_002n;
        const call = client.createPlant({ id, name: `survivor ${when}` }, { deadline: Date.now() + 90_000 });
        await crashed;
        server = await start(port);
        expect(await call).toEqual({ name: `survivor ${when}` });
        await server.stop();
        const rows = (await storedPlants(database.url)).filter((p) => p.id === id.toString());
        expect(rows).toEqual([{ id: id.toString(), name: `survivor ${when}` }]);
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );
});
