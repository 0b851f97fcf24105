// How much a deleted plant's tombstone keeps in the store, per id, on each engine: a store of
// BENCH_TOMBSTONES plants (100,000 by default) is measured once with every plant live and
// once with every one deleted, and the tables' and indexes' bytes are divided by the count.
// `pnpm bench:tombstones` (PostgreSQL too when DATABASE_URL names an admin database).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlStore } from '../packages/adapters-persistence/dist/index.js';
import { Plant, PlantId } from '../packages/domain/dist/index.js';
import { createPostgresDatabase } from '../test-support/postgres.mjs';
import { writeResult } from './results.mjs';

const COUNT = Number(process.env.BENCH_TOMBSTONES ?? 100_000);
const BATCH = 5_000;
// As long as a real token id (a UUID): a tombstone keeps it.
const TOKEN = '00000000-0000-4000-8000-00000000beec';

/** Stores COUNT plants, then deletes them all, measuring the store's size before and after. */
async function measure(store, sizeOf) {
  const provenance = { createdByTokenId: undefined, createdAt: new Date() };
  for (let first = 0; first < COUNT; first += BATCH) {
    const plants = Array.from({ length: Math.min(BATCH, COUNT - first) }, (_, i) => {
      const id = first + i + 1;
      return Plant.parse({ id: String(id), name: `Plant number ${id}`, tag: 'bench' }).plant;
    });
    await store.plants.insertAllIfAbsent(plants, provenance);
  }
  const live = await sizeOf();
  const retirement = { retiredAt: new Date(), retiredByTokenId: TOKEN };
  for (let first = 0; first < COUNT; first += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, COUNT - first) }, (_, i) =>
      PlantId.fromStored(String(first + i + 1)),
    );
    await Promise.all(ids.map((id) => store.plants.retire(id, 1, retirement)));
  }
  const retired = await sizeOf();
  return { live, retired };
}

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-tombstones-'));
  const path = join(dir, 'store.sqlite');
  const store = await SqlStore.open({ engine: 'sqlite', path, busyTimeoutMs: 5_000, createDirectory: false });
  try {
    await registerToken(store, '?');
    // The bytes the database file holds once its WAL is folded in; freed pages counted out.
    const sizeOf = async () => {
      await store.dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
      const [{ page_size: pageSize }] = await store.dataSource.query('PRAGMA page_size');
      const [{ freelist_count: free }] = await store.dataSource.query('PRAGMA freelist_count');
      return statSync(path).size - free * pageSize;
    };
    return await measure(store, sizeOf);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(adminUrl) {
  const database = await createPostgresDatabase(adminUrl, 'plantstore_bench_tombstones_');
  const store = await SqlStore.open({
    engine: 'postgres',
    url: database.url,
    poolSize: 8,
    statementTimeoutMs: 60_000,
    connectTimeoutMs: 5_000,
  });
  try {
    await registerToken(store, '$1');
    const sizeOf = async () => {
      // VACUUM FULL rewrites the table with what it holds now: dead row versions counted out.
      await store.dataSource.query('VACUUM FULL plant');
      const [{ bytes }] = await store.dataSource.query("SELECT pg_total_relation_size('plant') AS bytes");
      return Number(bytes);
    };
    return await measure(store, sizeOf);
  } finally {
    await store.close();
    await database.drop();
  }
}

/** The token that deletes every plant: a tombstone keeps who deleted it. */
async function registerToken(store, placeholder) {
  const p = (n) => (placeholder === '?' ? '?' : `$${n}`);
  await store.dataSource.query(
    `INSERT INTO api_token (id, name, token_hash, scopes, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`,
    [TOKEN, 'bench', 'f'.repeat(64), 'plants:write', new Date().toISOString()],
  );
}

const rows = [];
const row = (engine, { live, retired }) =>
  `| ${engine} | ${COUNT.toLocaleString('en')} | ${(live / COUNT).toFixed(1)} | ${(retired / COUNT).toFixed(1)} |`;
rows.push(row('SQLite', await sqlite()));
const adminUrl = process.env.DATABASE_URL;
if (adminUrl !== undefined && /^postgres(ql)?:/.test(adminUrl)) rows.push(row('PostgreSQL', await postgres(adminUrl)));

const report = [
  'Bytes per id in the `plant` table and its indexes, every plant live, then every plant deleted',
  '(a tombstone: the id, its version, when it was created and deleted and by which token).',
  '',
  '| engine | plants | bytes per live plant | bytes per tombstone |',
  '| --- | ---: | ---: | ---: |',
  ...rows,
].join('\n');
console.log(report);
console.log(`saved to ${writeResult('Tombstone size', report, 'tombstones')}`);
