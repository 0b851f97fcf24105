import type { Agent } from 'node:http';
import { migrations } from '@plantstore/adapters-persistence';
import { connectPostgres, describeOnPostgres, type TestDatabase } from '../support/engines.js';
import { keepAliveAgent, postPlantVia, sendVia, type PostResult } from '../support/http-post.js';
import { explainedBySerialOrder, type PlantOperation } from '../support/serial-order.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli, runCli } from '../../../../test-support/built-cli.js';

const INSTANCES = 3;
const IDS = 200;
// Id groups raced at once; with 5 requests per id at most 125 requests are in flight.
const GROUPS_IN_FLIGHT = 25;
const REVOCATION_BOUND_MS = 5_000;
const INVALID_TOKEN = {
  error: 40102,
  message: 'The bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.',
};

interface Sent {
  readonly id: bigint;
  readonly server: number;
  readonly name: string;
  readonly tag?: string;
}

describeOnPostgres('3 API processes on one PostgreSQL database', (engine) => {
  let database: TestDatabase;
  const servers: BuiltServer[] = [];
  let agents: Agent[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await engine.createDatabase();
    env = { DATABASE_URL: database.url };
    // All three start at once on the EMPTY database: their migrations race, as when a
    // deployment starts every replica together.
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startBuiltServer(env)));
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    agents = servers.map(() => keepAliveAgent(50));
  }, 60_000);

  // Children are always stopped, even when beforeAll or a test failed half-way.
  afterAll(async () => {
    for (const agent of agents) agent.destroy();
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 30_000);

  it('applied the migrations exactly once although the three instances started together', async () => {
    const client = await connectPostgres(database.url);
    try {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      expect(rows.map((r) => r.name)).toEqual(migrations.map((migration) => migration.name));
    } finally {
      await client.end();
    }
  });

  it('races 200 overlapping ids across the instances: one row per id, every answer 200 or 409 and consistent with it, no 5xx', async () => {
    const { token } = await createTokenWithCli(database.url, 'race');
    // Per id: the same body to every instance (a client retrying elsewhere), plus two rivals
    // (no tag; another name) to two different instances, all sent at the same moment.
    const groups: Sent[][] = Array.from({ length: IDS }, (_, i) => {
      const id = 9_223_372_036_854_775_807n - BigInt(i); // int64 max downwards: exactness matters
      const same = { name: `plant ${i}`, tag: 'raced' };
      return [
        ...servers.map((_, server) => ({ id, server, ...same })),
        { id, server: i % INSTANCES, name: `plant ${i}` },
        { id, server: (i + 1) % INSTANCES, name: `rival ${i}`, tag: 'raced' },
      ];
    });
    const answers = new Map<Sent, PostResult>();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: GROUPS_IN_FLIGHT }, async () => {
        while (next < groups.length) {
          const group = groups[next++]!;
          const results = await Promise.all(group.map((sent) => post(sent, token)));
          group.forEach((sent, k) => answers.set(sent, results[k]!));
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    const requests = groups.flat().length;
    console.log(
      `multi-process race: ${requests} POST /plants for ${IDS} ids across ${INSTANCES} instances in ${elapsedMs.toFixed(0)} ms: ` +
        `${((requests / elapsedMs) * 1000).toFixed(0)} requests/s, ${((IDS / elapsedMs) * 1000).toFixed(0)} new plants/s`,
    );

    const stored = await storedPlants();
    expect(stored.size).toBe(IDS);
    const statuses = [...answers.values()].map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const group of groups) {
      const row = stored.get(group[0]!.id.toString());
      expect(row).toBeDefined();
      // The stored plant is one of the bodies sent for that id, and each answer agrees with it.
      expect(group.some((sent) => sameContent(sent, row!))).toBe(true);
      for (const sent of group) {
        const answer = answers.get(sent)!;
        if (sameContent(sent, row!)) {
          expect([answer.status, answer.text]).toEqual([
            200,
            JSON.stringify(row!.tag === null ? { name: row!.name } : { name: row!.name, tag: row!.tag }),
          ]);
        } else {
          expect(answer.status).toBe(409);
          expect(JSON.parse(answer.text)).toMatchObject({ error: 40901 });
        }
      }
    }
  }, 120_000);

  it('lets exactly one of 30 PUTs with the same If-Match win across the instances; the rest get 412, none a 5xx', async () => {
    const { token } = await createTokenWithCli(database.url, 'editors');
    const id = '9007199254740993';
    expect((await post({ id: BigInt(id), server: 0, name: 'Original' }, token)).status).toBe(200);
    const read = await sendVia(agents[1]!, servers[1]!.url, { method: 'GET', path: `/plants/${id}`, token });
    const etag = read.headers['etag'] as string;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sendVia(agents[i % INSTANCES]!, servers[i % INSTANCES]!.url, {
          method: 'PUT',
          path: `/plants/${id}`,
          token,
          body: `{"name": "Editor ${i}"}`,
          headers: { 'If-Match': etag },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(29).fill(412)]);
    const winner = answers.find((answer) => answer.status === 200)!;
    // Every instance reads what was committed at once: there is no cache of plants.
    for (const [server, agent] of agents.entries()) {
      const after = await sendVia(agent, servers[server]!.url, { method: 'GET', path: `/plants/${id}`, token });
      expect([after.text, after.headers['etag']]).toEqual([winner.text, winner.headers['etag']]);
    }
  }, 60_000);

  it('ends PUTs, DELETEs and create retries of one id sent to all instances in a state a serial order explains', async () => {
    const { token } = await createTokenWithCli(database.url, 'racers');
    const operations: PlantOperation[] = [
      { kind: 'put', name: 'A' },
      { kind: 'put', name: 'B' },
      { kind: 'delete' },
      { kind: 'create', name: 'Base' },
      { kind: 'put', name: 'Base' },
      { kind: 'create', name: 'Base' },
    ];
    for (let round = 0; round < 10; round++) {
      const id = 5_000_000n + BigInt(round);
      expect((await post({ id, server: 0, name: 'Base' }, token)).status).toBe(200);
      const answers = await Promise.all(
        operations.map((operation, i) => {
          const server = i % INSTANCES;
          const [agent, url] = [agents[server]!, servers[server]!.url];
          if (operation.kind === 'create') return post({ id, server, name: operation.name }, token);
          return sendVia(agent, url, {
            method: operation.kind === 'put' ? 'PUT' : 'DELETE',
            path: `/plants/${id}`,
            token,
            ...(operation.kind === 'put' ? { body: `{"name": "${operation.name}"}` } : {}),
          });
        }),
      );
      const seen = answers.map((answer) =>
        answer.status === 409 || answer.status === 410
          ? `${answer.status} ${(JSON.parse(answer.text) as { error: number }).error}`
          : String(answer.status),
      );
      const final = await plantState(id);
      expect({
        seen,
        final,
        explained: explainedBySerialOrder({ name: 'Base', deleted: false, version: 1 }, operations, seen, final),
      }).toEqual({ seen, final, explained: true });
    }
  }, 60_000);

  it('refuses a token revoked with the CLI on every instance within 5 s', async () => {
    const { id, token } = await createTokenWithCli(database.url, 'soon-revoked');
    // Accepted everywhere first, so a refusal afterwards is the revocation's doing.
    const before = await Promise.all(
      servers.map((_, server) => post({ id: 42n + BigInt(server), server, name: 'before revocation' }, token)),
    );
    expect(before.map((r) => r.status)).toEqual(servers.map(() => 200));

    const revoke = await runCli(['token', 'revoke', id], env);
    expect(revoke.code).toBe(0);
    const revokedAt = performance.now();

    const refusedAfterMs = await Promise.all(
      servers.map(async (_, server) => {
        for (let attempt = 0; ; attempt++) {
          const answer = await post({ id: 1_000n + BigInt(attempt), server, name: 'after revocation' }, token);
          const elapsed = performance.now() - revokedAt;
          if (answer.status === 401) {
            expect(JSON.parse(answer.text)).toEqual(INVALID_TOKEN);
            return elapsed;
          }
          if (elapsed > REVOCATION_BOUND_MS)
            throw new Error(
              `instance ${server} still answers ${answer.status} ${elapsed.toFixed(0)} ms after the revocation`,
            );
          await new Promise((wait) => setTimeout(wait, 100));
        }
      }),
    );
    console.log(
      `revocation seen by all ${INSTANCES} instances after ${refusedAfterMs.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    );
    for (const ms of refusedAfterMs) expect(ms).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
  }, 30_000);

  function post(sent: Sent, token: string): Promise<PostResult> {
    const body = `{"id": ${sent.id}, "name": ${JSON.stringify(sent.name)}${sent.tag === undefined ? '' : `, "tag": ${JSON.stringify(sent.tag)}`}}`;
    return postPlantVia(agents[sent.server]!, servers[sent.server]!.url, token, body);
  }

  async function plantState(id: bigint): Promise<{ name: string | undefined; deleted: boolean; version: number }> {
    const client = await connectPostgres(database.url);
    try {
      const { rows } = await client.query<{ name: string | null; version: number; deleted: boolean }>(
        'SELECT name, version, deleted_at IS NOT NULL AS deleted FROM plant WHERE id = $1',
        [id.toString()],
      );
      const [row] = rows;
      return { name: row?.name ?? undefined, deleted: row?.deleted ?? false, version: row?.version ?? 0 };
    } finally {
      await client.end();
    }
  }

  async function storedPlants(): Promise<Map<string, { name: string; tag: string | null }>> {
    const client = await connectPostgres(database.url);
    try {
      const { rows } = await client.query<{ id: string; name: string; tag: string | null }>(
        'SELECT CAST(id AS TEXT) AS id, name, tag FROM plant',
      );
      const byId = new Map(rows.map((r) => [r.id, { name: r.name, tag: r.tag }]));
      // The primary key forbids duplicates; counting them anyway makes "exactly one row" explicit.
      expect(byId.size).toBe(rows.length);
      return byId;
    } finally {
      await client.end();
    }
  }
});

function sameContent(sent: Sent, row: { name: string; tag: string | null }): boolean {
  return sent.name === row.name && (sent.tag ?? null) === row.tag;
}
