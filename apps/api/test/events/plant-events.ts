import { mkdtempSync, rmSync } from 'node:fs';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followPlantEvents, PlantCatalogue, type Following } from '../../../../examples/plant-catalogue/src/index.js';
import Database from 'better-sqlite3';
import { connectPostgres, type TestDatabase } from '../support/engines.js';
import { getVia, keepAliveAgent, postPlantVia } from '../support/http-post.js';
import { eventIdBreaks, streamedPlantEvents } from './plant-event-stream.js';

/** The example consumer app, following the stream into its own projection in a temp directory. */
export interface RunningCatalogue {
  readonly catalogue: PlantCatalogue;
  readonly following: Following;
  close(): Promise<void>;
}

export async function startCatalogue(natsUrl: string, durable = 'catalogue'): Promise<RunningCatalogue> {
  const directory = mkdtempSync(join(tmpdir(), 'plantstore-catalogue-'));
  const catalogue = new PlantCatalogue(join(directory, 'catalogue.sqlite'));
  const following = await followPlantEvents(catalogue, { servers: natsUrl, durable, streamWaitMs: 20_000 }).catch(
    (error: unknown) => {
      catalogue.close();
      rmSync(directory, { recursive: true, force: true });
      throw error;
    },
  );
  return {
    catalogue,
    following,
    /** Rejects with what stopped the consumer, if anything did, once everything is closed and removed. */
    async close() {
      try {
        await following.stop();
      } finally {
        catalogue.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

export interface LoadResult {
  /** Answers by status; `failed` counts requests that got no answer (the server was killed). */
  readonly statuses: Record<string, number>;
}

/**
 * POSTs one plant per id, `concurrency` at a time over a keep-alive pool, until the ids run
 * out or `until()` says stop. Requests the server never answered count as `failed`.
 */
export async function createPlants(
  url: string,
  token: string,
  ids: readonly bigint[],
  concurrency: number,
  until: () => boolean = () => false,
  /** A pause after each request, so a load meant to span a time window cannot end early on a fast machine. */
  pauseMs = 0,
): Promise<LoadResult> {
  const agent: Agent = keepAliveAgent(concurrency);
  const statuses: Record<string, number> = {};
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ids.length && !until()) {
          const id = ids[next++]!;
          const status = await postPlantVia(agent, url, token, `{"id":${id},"name":"plant ${id}","tag":"e2e"}`, 10_000)
            .then((result) => String(result.status))
            .catch(() => 'failed');
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { statuses };
}

/** Ids from int64 max downwards: exact decimal text matters on the way through the broker. */
export function idsFrom(start: number, count: number): bigint[] {
  return Array.from({ length: count }, (_, i) => 9_223_372_036_854_775_807n - BigInt(start + i));
}

/** Every plant id in the store's table, as exact decimal text, sorted. */
export async function tableIds(database: TestDatabase): Promise<string[]> {
  const sql = 'SELECT CAST(id AS TEXT) AS id FROM plant';
  if (database.engine === 'sqlite') {
    const db = new Database(database.name, { readonly: true });
    try {
      return (db.prepare(sql).all() as Array<{ id: string }>).map((row) => row.id).sort();
    } finally {
      db.close();
    }
  }
  const client = await connectPostgres(database.url);
  try {
    return (await client.query<{ id: string }>(sql)).rows.map((row) => row.id).sort();
  } finally {
    await client.end();
  }
}

/** Every plant id in the consumer's projection, sorted; each appears once by construction of the table's key. */
export function catalogueIds(catalogue: PlantCatalogue): string[] {
  return catalogue
    .plants()
    .map((plant) => plant.id)
    .sort();
}

/** Waits until the catalogue holds `count` plants (or the deadline passes: the caller's assertions then say what is missing). */
export async function untilCatalogueHolds(catalogue: PlantCatalogue, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (catalogue.count() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  // A little longer, so a duplicate that would arrive late is seen by the assertions.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/**
 * The exact-once check: every plant of the table reaches the stream under one event id, and
 * no other plant does; the consumer's projection holds each plant once, applied once.
 */
export async function expectEveryPlantDeliveredOnce(
  database: TestDatabase,
  natsUrl: string,
  { catalogue, following }: RunningCatalogue,
): Promise<void> {
  const table = await tableIds(database);
  await untilCatalogueHolds(catalogue, table.length);
  expect(table.length).toBeGreaterThan(0);
  // Read from the stream itself, so a plant under a second event id is named even when the
  // consumer stopped at it (its projection refuses a plant it holds).
  const streamed = await streamedPlantEvents(natsUrl);
  expect(eventIdBreaks(streamed)).toEqual([]);
  expect([...new Set(streamed.map((event) => event.plantId))].sort()).toEqual(table);
  expect(catalogueIds(catalogue)).toEqual(table);
  expect(following.applied).toBe(table.length);
}

/** A counter's value from GET /metrics. */
export async function metric(url: string, name: string): Promise<number> {
  const agent = keepAliveAgent(1);
  try {
    const { text } = await getVia(agent, url, '/metrics');
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    if (line === undefined) throw new Error(`no ${name} in /metrics`);
    return Number(line.split(' ')[1]);
  } finally {
    agent.destroy();
  }
}
