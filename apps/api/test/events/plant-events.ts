import { mkdtempSync, rmSync } from 'node:fs';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  followPlantEvents,
  PlantCatalogue,
  type CataloguePlant,
  type Following,
} from '../../../../examples/plant-catalogue/src/index.js';
import Database from 'better-sqlite3';
import { connectPostgres, type TestDatabase } from '../support/engines.js';
import { getVia, keepAliveAgent, postPlantVia } from '../support/http-post.js';
import { eventIdBreaks, streamedPlantEvents, streamedVersions } from './plant-event-stream.js';

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

/** A row of the store's plant table: a live plant, or a deleted one's tombstone. */
export interface StoredPlant {
  readonly id: string;
  readonly name: string | null;
  readonly tag: string | null;
  readonly version: number;
  readonly deleted: boolean;
}

/** Every row of the store's plant table, tombstones included, sorted by id as text. */
export async function storedPlants(database: TestDatabase): Promise<StoredPlant[]> {
  const sql = `SELECT CAST(id AS TEXT) AS id, name, tag, version, deleted_at IS NOT NULL AS deleted FROM plant`;
  let rows: Array<Omit<StoredPlant, 'deleted'> & { deleted: unknown }>;
  if (database.engine === 'sqlite') {
    const db = new Database(database.name, { readonly: true });
    try {
      rows = db.prepare(sql).all() as typeof rows;
    } finally {
      db.close();
    }
  } else {
    const client = await connectPostgres(database.url);
    try {
      rows = (await client.query<(typeof rows)[number]>(sql)).rows;
    } finally {
      await client.end();
    }
  }
  return rows
    .map((row) => ({ ...row, deleted: Boolean(row.deleted) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Every plant id in the store's table, tombstones included, as exact decimal text, sorted. */
export async function tableIds(database: TestDatabase): Promise<string[]> {
  return (await storedPlants(database)).map((plant) => plant.id);
}

/** The live plants as the catalogue should hold them: what the store holds, deleted ones left out. */
function livePlants(stored: readonly StoredPlant[]): CataloguePlant[] {
  return stored
    .filter((plant) => !plant.deleted)
    .map(({ id, name, tag, version }) => ({ id, name: name!, tag, version }));
}

/** The catalogue's live plants, sorted by id as text. */
export function cataloguePlants(catalogue: PlantCatalogue): CataloguePlant[] {
  return catalogue.plants().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Waits until the consumer applied `events` events (or the deadline passes: the caller's
 * assertions then say what is missing), then a little longer, so that a duplicate that would
 * arrive late is seen by the assertions.
 */
async function untilApplied(following: Following, events: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (following.applied < events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/**
 * The exact-once check, for creates, changes and deletions alike: every version of every plant
 * of the table reaches the stream under one event id (each plant's versions from 1 to the
 * table's, none missing), each event id names one (plant, version), and no other plant is
 * streamed; the consumer applied each event once and holds exactly the store's live plants,
 * with their names, tags and versions.
 */
export async function expectEveryPlantDeliveredOnce(
  database: TestDatabase,
  natsUrl: string,
  { catalogue, following }: RunningCatalogue,
): Promise<void> {
  const stored = await storedPlants(database);
  expect(stored.length).toBeGreaterThan(0);
  // One event per version: a plant at version n made n events, its deletion included.
  const events = stored.reduce((sum, plant) => sum + plant.version, 0);
  await untilApplied(following, events);
  // Read from the stream itself, so a change under a second event id is named even when the
  // consumer stopped at it.
  const streamed = await streamedPlantEvents(natsUrl);
  expect(eventIdBreaks(streamed)).toEqual([]);
  const versions = streamedVersions(streamed);
  expect([...versions.keys()].sort()).toEqual(stored.map((plant) => plant.id));
  const gaps = stored.filter(({ id, version }) => versions.get(id)!.join() !== range(version).join());
  expect(gaps.map(({ id, version }) => `${id}: stored v${version}, streamed ${versions.get(id)!.join()}`)).toEqual([]);
  expect(cataloguePlants(catalogue)).toEqual(livePlants(stored));
  expect(following.applied).toBe(events);
}

function range(last: number): number[] {
  return Array.from({ length: last }, (_, i) => i + 1);
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
