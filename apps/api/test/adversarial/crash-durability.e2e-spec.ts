import Database from 'better-sqlite3';
import { Agent } from 'node:http';
import { connectPostgres, describeOnPostgres } from '../support/engines.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { tempDatabaseDir } from './support/temp-database.js';
import { postPlantVia } from '../support/http-post.js';
import { mapConcurrently } from './support/load.js';

/**
 * "Nothing acknowledged with a 200 is ever lost" (issue 6, README "Storage and durability"):
 * the built server runs creates at high concurrency, is SIGKILLed mid-load, restarts on the
 * same database, and every id it had answered 200 must still be there: re-posting it with a
 * different name must be a 409 (a 200 there would be a lost plant).
 */
const IN_FLIGHT = 64;
/** Kill points: how long after the first acknowledged create the process is killed. */
const KILL_DELAYS_MS = [0, 250, 900];
const ID_BASE = 9_000_000_000_000_000_000n;

interface CrashTarget {
  /** DATABASE_URL for the server and the CLI. */
  readonly url: string;
  /** Every stored plant, read behind the server's back once it is down. */
  rows(): Promise<Array<{ id: string; name: string }>>;
  remove(): Promise<void>;
}

function defineCrashRounds(label: string, makeTarget: () => Promise<CrashTarget>): void {
  let target: CrashTarget;
  let token: string;
  let server: BuiltServer | undefined;
  const acknowledged = new Map<bigint, string>();
  const verifiedPerRound: number[] = [];

  beforeAll(async () => {
    target = await makeTarget();
    ({ token } = await createTokenWithCli(target.url, 'crash-durability'));
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await target?.remove();
    console.log(
      `crash durability (${label}): acknowledged ids verified per round: ${verifiedPerRound.join(', ')} (rounds ${verifiedPerRound.length})`,
    );
  });

  const start = () => startBuiltServer({ DATABASE_URL: target.url, AUTH_FAILURE_LIMIT_PER_MINUTE: '0' });

  /** Drives creates with IN_FLIGHT concurrent clients until the server is killed; returns what it acknowledged. */
  async function loadUntilKilled(running: BuiltServer, round: number, killDelayMs: number) {
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const acked = new Map<bigint, string>();
    let nextId = ID_BASE + BigInt(round) * 1_000_000n;
    let inFlight = 0;
    let killed = false;
    let firstAck: () => void = () => undefined;
    const firstAckSeen = new Promise<void>((r) => (firstAck = r));

    const client = async () => {
      while (!killed) {
        const id = nextId++;
        const name = `round ${round} plant ${id}`;
        inFlight++;
        try {
          const res = await postPlantVia(agent, running.url, token, `{"id": ${id}, "name": "${name}"}`);
          if (res.status === 200 && res.text === JSON.stringify({ name })) {
            acked.set(id, name);
            firstAck();
          } else {
            throw new Error(`create ${id} answered ${res.status} ${res.text} before the kill`);
          }
        } catch (error) {
          if (!killed)
            throw new Error(`round ${round}, before the kill: ${(error as Error).message}`, { cause: error });
        } finally {
          inFlight--;
        }
      }
    };
    const clients = Array.from({ length: IN_FLIGHT }, client);
    const everyClient = Promise.all(clients);
    const guard = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no create was acknowledged within 30 s')), 30_000).unref(),
    );
    let inFlightAtKill: number;
    try {
      await Promise.race([firstAckSeen, guard, everyClient]);
      await new Promise((r) => setTimeout(r, killDelayMs));
    } finally {
      inFlightAtKill = inFlight;
      killed = true;
      await running.stop('SIGKILL');
      await everyClient.catch(() => undefined);
      agent.destroy();
    }
    await everyClient; // a failure before the kill fails the round
    return { acked, inFlightAtKill };
  }

  it.each(KILL_DELAYS_MS.map((delay, i) => [i + 1, delay]))(
    'round %i: killed %i ms after the first 200, every acknowledged id survives the restart (re-post → 409)',
    async (round, killDelayMs) => {
      server = await start();
      const { acked, inFlightAtKill } = await loadUntilKilled(server, round, killDelayMs);
      expect(acked.size).toBeGreaterThan(0);
      expect(inFlightAtKill).toBeGreaterThan(0); // the kill really landed mid-load
      for (const [id, name] of acked) acknowledged.set(id, name);

      server = await start();
      const agent = new Agent({ keepAlive: true, maxSockets: 32 });
      try {
        // Every id acknowledged so far, this round and before: a different name must conflict.
        const ids = [...acknowledged.keys()];
        const answers = await mapConcurrently(ids, 32, (id) =>
          postPlantVia(agent, server!.url, token, `{"id": ${id}, "name": "changed after crash"}`),
        );
        const lost = ids.flatMap((id, i) =>
          answers[i]!.status === 409 ? [] : [`${id} → ${answers[i]!.status} ${answers[i]!.text}`],
        );
        expect(lost).toEqual([]);
        verifiedPerRound.push(ids.length);
      } finally {
        agent.destroy();
        await server.stop('SIGKILL');
        server = undefined;
      }
    },
    120_000,
  );

  it('the store holds every acknowledged plant with the name that was acknowledged, and nothing no client sent', async () => {
    const stored = new Map((await target.rows()).map((r) => [r.id, r.name]));
    const wrong = [...acknowledged]
      .filter(([id, name]) => stored.get(id.toString()) !== name)
      .map(([id]) => id.toString());
    expect(wrong).toEqual([]);
    // Rows of creates caught in flight may be there too, but only as their clients sent them.
    for (const [id, name] of stored) expect(name).toBe(`round ${(BigInt(id) - ID_BASE) / 1_000_000n} plant ${id}`);
  });
}

describe('crash durability: SIGKILL mid-load on SQLite', () => {
  defineCrashRounds('SQLite', async () => {
    const db = tempDatabaseDir('crash');
    return {
      url: db.url,
      async rows() {
        const sqlite = new Database(db.path);
        try {
          expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
          return sqlite.prepare('SELECT CAST(id AS TEXT) AS id, name FROM plant').all() as Array<{
            id: string;
            name: string;
          }>;
        } finally {
          sqlite.close();
        }
      },
      remove: async () => db.remove(),
    };
  });
});

describeOnPostgres('crash durability: SIGKILL mid-load on PostgreSQL', (engine) => {
  defineCrashRounds('PostgreSQL', async () => {
    const db = await engine.createDatabase();
    return {
      url: db.url,
      async rows() {
        const client = await connectPostgres(db.url);
        try {
          return (await client.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM plant')).rows;
        } finally {
          await client.end();
        }
      },
      remove: () => db.drop(),
    };
  });
});
