import type { Agent } from 'node:http';
import { connectPostgres, describeOnPostgres, E2E_DATABASE_PREFIX, type TestDatabase } from '../support/engines.js';
import { getVia, keepAliveAgent, postPlantVia, type PostResult } from '../support/http-post.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { freePort } from '../../../../test-support/free-port.mjs';
import { TcpProxy } from '../../../../test-support/tcp-proxy.js';

const UNAVAILABLE = { error: 50301, message: 'The plant store is temporarily unavailable; retry shortly.' };
const NOT_READY = { error: 50301, message: 'The service is temporarily unavailable; retry shortly.' };
// Generous bounds: these catch a hang, they do not measure performance.
const DETECTION_BOUND_MS = 10_000;
const RECOVERY_BOUND_MS = 15_000;
// Short timeouts so that a hang, if there were one, would show within the bounds above.
const TIMEOUTS = { PG_CONNECT_TIMEOUT_MS: '1000', PG_STATEMENT_TIMEOUT_MS: '1000' };

describe('a server started while PostgreSQL refuses connections', () => {
  it('exits 1 promptly with one line saying why, without the password', async () => {
    const closedPort = await freePort();
    const started = performance.now();
    const failure = await startBuiltServer({
      DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${closedPort}/${E2E_DATABASE_PREFIX}unreachable`,
      ...TIMEOUTS,
    }).then(
      async (server) => {
        await server.stop();
        return new Error('the server started without its database');
      },
      (error: unknown) => error as Error,
    );
    expect(failure.message).toMatch(/^the server exited with code 1 before answering: /);
    // Its stderr is now that one line, after the prefix of the message.
    const lastLine = failure.message
      .replace(/^the server exited with code 1 before answering: /, '')
      .trim()
      .split('\n')
      .at(-1)!;
    expect(JSON.parse(lastLine)).toMatchObject({
      level: 'fatal',
      msg: expect.stringMatching(new RegExp(`^failed to start: .*ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}`)),
    });
    expect(failure.message).not.toContain('s3cret');
    expect(performance.now() - started).toBeLessThan(DETECTION_BOUND_MS);
  });
});

describeOnPostgres('a running server when PostgreSQL goes away and comes back', (engine) => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: BuiltServer | undefined;
  let agent: Agent;
  let token: string;

  beforeAll(async () => {
    database = await engine.createDatabase();
    const direct = new URL(database.url);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.open();
    ({ token } = await createTokenWithCli(database.url, 'outage'));
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    server = await startBuiltServer({ DATABASE_URL: proxied.toString(), ...TIMEOUTS });
    agent = keepAliveAgent(20);
  }, 60_000);

  // Always stop the child and free the port, whatever failed.
  afterAll(async () => {
    agent?.destroy();
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  }, 30_000);

  let nextId = 1_000;
  const post = (name: string, id = nextId++): Promise<PostResult> =>
    postPlantVia(agent, server!.url, token, JSON.stringify({ id, name }), DETECTION_BOUND_MS + 5_000);

  /** Sends `parallel` creates at a time until one is answered 200; returns how long that took. */
  async function untilServed(parallel: number, since: number): Promise<number> {
    for (;;) {
      const answers = await Promise.all(Array.from({ length: parallel }, () => post('after the outage')));
      const elapsed = performance.now() - since;
      if (answers.some((a) => a.status === 200)) return elapsed;
      // While recovering, an answer is a 200 or a prompt 503, never anything else.
      for (const a of answers) expect([a.status, JSON.parse(a.text)]).toEqual([503, UNAVAILABLE]);
      if (elapsed > RECOVERY_BOUND_MS)
        throw new Error(`still 503 ${elapsed.toFixed(0)} ms after the database came back`);
      await new Promise((wait) => setTimeout(wait, 50));
    }
  }

  function expectUnavailable(answer: PostResult): void {
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.text)).toEqual(UNAVAILABLE);
  }

  it('refused connections: 503/50301 at once, then serves again without a restart', async () => {
    // Up: the pool holds live connections through the proxy.
    expect((await post('before the outage', 1)).status).toBe(200);

    await proxy.close();
    const cutAt = performance.now();
    const first = await post('during the outage', 2);
    const detectionMs = performance.now() - cutAt;
    expectUnavailable(first);
    expect(detectionMs).toBeLessThan(DETECTION_BOUND_MS);
    // Every request during the outage gets the same prompt answer; none is left hanging.
    const during = await Promise.all(Array.from({ length: 20 }, () => post('during the outage')));
    expect(during.map((r) => [r.status, JSON.parse(r.text)])).toEqual(during.map(() => [503, UNAVAILABLE]));
    // An orchestrator sees it too, and takes the instance out of rotation.
    expect(await readiness()).toEqual([503, NOT_READY]);
    // The operator sees why: every 503 line names the database as unreachable, in JSON lines only.
    const lines = server!
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { status?: number; cause?: string });
    const refused = lines.filter((line) => line.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((line) => line.cause))).toEqual(new Set(['database unreachable']));

    await proxy.open();
    const recoveryMs = await untilServed(1, performance.now());
    expect(await readiness()).toEqual([200, expect.objectContaining({ status: 'ok' })]);
    console.log(
      `PostgreSQL refusing connections: first 503 after ${detectionMs.toFixed(0)} ms; first 200 ${recoveryMs.toFixed(0)} ms after it was reachable again`,
    );

    // Nothing was half-written during the outage: only plants answered 200 exist.
    expect(await storedNames()).toEqual(['before the outage', 'after the outage']);
  }, 60_000);

  it('a silent network (no answer, no reset): 503/50301 within the query deadline, then serves again when new connections get through', async () => {
    // Ten at once, so the pool holds ten connections that will all go silent.
    const warm = await Promise.all(Array.from({ length: 10 }, () => post('before the partition')));
    expect(warm.map((a) => a.status)).toEqual(Array(10).fill(200));

    proxy.blackHole();
    const cutAt = performance.now();
    const first = await post('during the partition');
    const detectionMs = performance.now() - cutAt;
    expectUnavailable(first);
    expect(detectionMs).toBeLessThan(DETECTION_BOUND_MS);
    expect(await readiness()).toEqual([503, NOT_READY]);

    // New connections reach the database again; the old ones stay silent forever, as after a
    // failover. Connections that never answer must be dropped, not handed out again and again.
    await proxy.open();
    const recoveryMs = await untilServed(5, performance.now());
    console.log(
      `PostgreSQL silent (partition/failover): first 503 after ${detectionMs.toFixed(0)} ms; first 200 ${recoveryMs.toFixed(0)} ms after new connections got through`,
    );
    const after = [];
    for (let i = 0; i < 10; i++) after.push((await post('after the partition')).status);
    expect(after).toEqual(Array(10).fill(200));
    expect(await readiness()).toEqual([200, expect.objectContaining({ status: 'ok' })]);
  }, 90_000);

  async function readiness(): Promise<[number, unknown]> {
    const answer = await getVia(agent, server!.url, '/readyz', DETECTION_BOUND_MS);
    return [answer.status, JSON.parse(answer.text)];
  }

  async function storedNames(): Promise<string[]> {
    const client = await connectPostgres(database.url);
    try {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM plant ORDER BY id');
      return rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  }
});
