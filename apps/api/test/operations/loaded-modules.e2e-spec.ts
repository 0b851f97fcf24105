import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { startBuiltServer } from '../../../../test-support/built-server.mjs';
import { freePort } from '../../../../test-support/free-port.mjs';
import { repositoryRoot } from '../../../../test-support/repository-root.mjs';
import { testEngines, type EngineName } from '../support/engines.js';

const RECORDER = join(repositoryRoot, 'test-support/module-load-recorder.mjs');

/** What a server without NATS_URL or REDIS_URL never needs, whatever its engine. */
const NEVER_LOADED = ['@nats-io/jetstream', '@nats-io/transport-node', 'ioredis', 'undici'];
/** The OpenAPI document's code (and what it brings along), loaded on the document's first request. */
const DOCUMENT_ONLY = ['@nestjs/swagger', 'es-toolkit', 'js-yaml'];
const DRIVER: Record<EngineName, string> = { sqlite: 'better-sqlite3', postgres: 'pg' };
const OTHER_ENGINE: Record<EngineName, EngineName> = { sqlite: 'postgres', postgres: 'sqlite' };

/**
 * Starts the built server with the recorder preloaded, creates, reads and lists a plant (and
 * makes any other `requests`), stops it, and answers the npm packages its process loaded.
 */
async function packagesLoadedBy(
  env: Record<string, string>,
  requests: (url: string) => Promise<void> = async () => undefined,
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-loaded-'));
  const list = join(dir, 'packages.txt');
  const { token } = await createTokenWithCli(env['DATABASE_URL']!, 'loaded-modules');
  const server = await startBuiltServer({
    ...env,
    NODE_OPTIONS: `--import=${RECORDER}`,
    PLANTSTORE_TEST_LOADED_PACKAGES_FILE: list,
  });
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const id = Date.now();
    const created = await fetch(`${server.url}/plants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id, name: 'Monstera deliciosa' }),
    });
    expect(created.status).toBe(200);
    expect((await fetch(`${server.url}/plants/${id}`, { headers })).status).toBe(200);
    expect((await fetch(`${server.url}/plants?limit=10`, { headers })).status).toBe(200);
    await requests(server.url);
  } finally {
    await server.stop();
  }
  const packages = readFileSync(list, 'utf8').split('\n');
  rmSync(dir, { recursive: true, force: true });
  return packages;
}

// What a server never uses on its engine and configuration is not loaded: each costs private
// memory (the NATS client 6.6 MB, @nestjs/swagger 11 MB; docs/decisions.md#performance).
describe.each(testEngines())('the packages a built server loads on $name', (engine) => {
  let database: Awaited<ReturnType<typeof engine.createDatabase>>;
  beforeEach(async () => {
    database = await engine.createDatabase();
  });
  afterEach(() => database.drop());

  it('serving plants without NATS or Redis: its engine and framework, no other driver, no NATS or Redis client, no OpenAPI document code', async () => {
    const loaded = await packagesLoadedBy({ DATABASE_URL: database.url });
    // The recorder saw the server's own stack (so an empty list cannot pass).
    expect(loaded).toEqual(expect.arrayContaining(['fastify', '@nestjs/core', 'typeorm', DRIVER[engine.name]]));
    for (const name of [...NEVER_LOADED, ...DOCUMENT_ONLY, DRIVER[OTHER_ENGINE[engine.name]]])
      expect(loaded).not.toContain(name);
  }, 60_000);

  it('asked for its OpenAPI document, the document code too', async () => {
    const loaded = await packagesLoadedBy({ DATABASE_URL: database.url }, async (url) => {
      expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    });
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/swagger']));
  }, 60_000);

  it('with NATS_URL set, the NATS client too', async () => {
    // Nothing listens there: the relay still loads its client to try.
    const loaded = await packagesLoadedBy({
      DATABASE_URL: database.url,
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
    });
    expect(loaded).toEqual(expect.arrayContaining(['@nats-io/transport-node', '@nats-io/jetstream']));
  }, 60_000);
});
