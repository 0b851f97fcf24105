import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { ChangeCursor, compareFeedPositions } from '@plantstore/domain';
import { openEventStream, type EventStreamReader } from '../../../../test-support/event-stream-reader.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli, runCli } from '../../../../test-support/built-cli.js';
import { FEED_WAIT_MS } from '../../../../test-support/feed-settled.js';
import { connectPostgres, describeOnPostgres, testEngines, type TestDatabase } from '../support/engines.js';
import { copyOfTable, FeedCopy, PLANT_TABLE_QUERY } from '../support/feed-copy.js';
import { churnPlants } from '../support/plant-churn.js';

const SHUTDOWN_TIMEOUT_MS = 5_000;
const REVOCATION_BOUND_MS = 5_000;

async function createPlant(url: string, token: string, id: number, name: string): Promise<void> {
  const res = await request(url)
    .post('/plants')
    .set('authorization', `Bearer ${token}`)
    .set('content-type', 'application/json')
    .send(`{"id":${id},"name":"${name}"}`);
  if (res.status !== 200) throw new Error(`create ${id}: ${res.status} ${res.text}`);
}

function follow(url: string, token: string, lastEventId?: string): Promise<EventStreamReader> {
  return openEventStream(`${url}/plants/changes`, {
    authorization: `Bearer ${token}`,
    ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
  });
}

describe.each(testEngines())('the change feed across the built server’s restarts ($name)', (engine) => {
  let database: TestDatabase;
  let server: BuiltServer | undefined;

  beforeAll(async () => {
    database = await engine.createDatabase();
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('SIGTERM with a stream open ends the stream and exits 0 in time; the cursors handed out before stay valid after the restart', async () => {
    const { token } = await createTokenWithCli(database.url, 'feed');
    server = await startBuiltServer({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_MS) });
    for (let id = 1; id <= 3; id++) await createPlant(server.url, token, id, `before ${id}`);
    const follower = await follow(server.url, token);
    await follower.untilEvents(3, FEED_WAIT_MS);
    const page = await request(server.url).get('/plants/changes').set('authorization', `Bearer ${token}`);
    const { next } = JSON.parse(page.text) as { next: string };
    expect(next).toBe(follower.events[2]!.id);

    const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    server.child.kill('SIGTERM');
    await follower.untilEnded(SHUTDOWN_TIMEOUT_MS);
    expect(await exited).toEqual([0, null]);
    // The streams were closed first: the exit did not wait for the shutdown timeout to cut them.
    expect(server.output()).not.toMatch(/shutdown timeout of \d+ ms reached/);

    server = await startBuiltServer({ DATABASE_URL: database.url });
    const again = await request(server.url)
      .get(`/plants/changes?after=${next}`)
      .set('authorization', `Bearer ${token}`);
    expect([again.status, again.body]).toEqual([200, { changes: [], next }]);
    await createPlant(server.url, token, 4, 'after');
    const resumed = await follow(server.url, token, follower.events[2]!.id);
    await resumed.untilEvents(1, FEED_WAIT_MS);
    expect(resumed.events.map(({ data }) => data)).toEqual(['{"id":4,"version":1,"name":"after"}']);
    resumed.close();
  });

  it('ends a stream within 5 s of its token’s revocation by the CLI (another process: the token cache holds it meanwhile)', async () => {
    const { id, token } = await createTokenWithCli(database.url, 'revoked', ['plants:read']);
    const follower = await follow(server!.url, token);
    expect(follower.status).toBe(200);
    // The token is in the server's cache from the stream's own request.
    await sleep(500);
    const revoked = await runCli(['token', 'revoke', id], { DATABASE_URL: database.url });
    expect(revoked.code).toBe(0);
    const revokedAt = performance.now();
    await follower.untilEnded(REVOCATION_BOUND_MS + 3_000);
    expect(performance.now() - revokedAt).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
  });
});

describeOnPostgres('the change feed on two instances, one killed mid-stream', (engine) => {
  let database: TestDatabase;
  const servers: BuiltServer[] = [];

  beforeAll(async () => {
    database = await engine.createDatabase();
    const env = { DATABASE_URL: database.url };
    servers.push(await startBuiltServer(env), await startBuiltServer(env));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 30_000);

  it('a follower that resumes on the other instance from its last id ends with a copy equal to the table', async () => {
    const [first, second] = servers as [BuiltServer, BuiltServer];
    const { token } = await createTokenWithCli(database.url, 'feed');
    let up = [first.url, second.url];
    const churn = churnPlants({ urls: () => up, token, ids: 60 });
    const copy = new FeedCopy();
    const onFirst = await follow(first.url, token);
    await onFirst.untilEvents(80, FEED_WAIT_MS);
    // SIGKILL: no goodbye; the follower sees its connection end.
    up = [second.url];
    await first.stop('SIGKILL');
    await onFirst.untilEnded(10_000);
    for (const { data } of onFirst.events) copy.apply(data);
    const lastId = onFirst.events.at(-1)!.id!;

    const onSecond = await follow(second.url, token, lastId);
    expect(onSecond.status).toBe(200);
    // Changes made while the follower reads the second instance: the resume must carry them too.
    const changedAtResume = churn.changed();
    const deadline = Date.now() + FEED_WAIT_MS;
    while (churn.changed() < changedAtResume + 20 && Date.now() < deadline) await sleep(50);
    const sent = await churn.stop();
    expect(sent).toBeGreaterThan(80);

    const client = await connectPostgres(database.url);
    try {
      const table = copyOfTable((await client.query(PLANT_TABLE_QUERY)).rows);
      const caughtUp = () => {
        const resumed = new FeedCopy();
        for (const [id, plant] of copy.plants) resumed.plants.set(id, plant);
        for (const { data } of onSecond.events) resumed.apply(data);
        return resumed;
      };
      await onSecond.until(() => sameCopy(caughtUp().plants, table), FEED_WAIT_MS).catch(() => undefined);
      const resumed = caughtUp();
      expect(copy.wentBack).toEqual([]);
      expect(resumed.wentBack).toEqual([]);
      expect(resumed.plants).toEqual(table);
      // Nothing twice: every event on the second instance lies after the last one read on the first, in order.
      const positions = [lastId, ...onSecond.events.map(({ id }) => id!)].map((id) => ChangeCursor.decode(id)!);
      expect(positions.length).toBeGreaterThan(1);
      positions.slice(1).forEach((position, i) => expect(compareFeedPositions(position, positions[i]!)).toBe(1));
    } finally {
      await client.end();
      onSecond.close();
    }
  }, 90_000);
});

function sameCopy(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, plant] of a) if (JSON.stringify(plant) !== JSON.stringify(b.get(id))) return false;
  return true;
}
