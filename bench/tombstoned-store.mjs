// A store that already holds deleted plants, for `pnpm bench:import` with BENCH_IMPORT_TOMBSTONES:
// each tombstone made the way the server's DELETE makes it (the store's own `retire`, which
// writes it over a live plant's row), by a token registered as the CLI would, so its bytes are
// a real tombstone's. Not timed: only the import into the store afterwards is.
import { SqlStore } from '../packages/adapters-persistence/dist/index.js';
import { Plant, PlantId } from '../packages/domain/dist/index.js';

const BATCH = 5_000;
// As long as a real token id (a UUID): a tombstone keeps it.
const TOKEN = '00000000-0000-4000-8000-00000000beec';

/** Creates a plant for each id (decimal texts), then deletes every one; the store is closed afterwards. */
export async function addTombstones(databaseUrl, ids) {
  const store = await openStore(databaseUrl);
  try {
    const placeholder = (n) => (databaseUrl.startsWith('sqlite:') ? '?' : `$${n}`);
    await store.dataSource.query(
      `INSERT INTO api_token (id, name, token_hash, scopes, created_at)
        VALUES (${[1, 2, 3, 4, 5].map(placeholder).join(', ')})`,
      [TOKEN, 'bench', 'e'.repeat(64), 'plants:write', new Date().toISOString()],
    );
    const provenance = { createdByTokenId: TOKEN, createdAt: new Date() };
    const retirement = { retiredAt: new Date(), retiredByTokenId: TOKEN };
    for (let first = 0; first < ids.length; first += BATCH) {
      const batch = ids.slice(first, first + BATCH);
      await store.plants.insertAllIfAbsent(
        batch.map((id) => Plant.parse({ id, name: 'Plant to delete', tag: 'bench' }).plant),
        provenance,
      );
      const retired = await Promise.all(batch.map((id) => store.plants.retire(PlantId.fromStored(id), 1, retirement)));
      if (!retired.every(Boolean)) throw new Error('a plant to delete was not deleted');
    }
  } finally {
    await store.close();
  }
}

function openStore(databaseUrl) {
  if (databaseUrl.startsWith('sqlite:'))
    return SqlStore.open({
      engine: 'sqlite',
      path: databaseUrl.slice('sqlite:'.length),
      busyTimeoutMs: 5_000,
      createDirectory: false,
    });
  return SqlStore.open({
    engine: 'postgres',
    url: databaseUrl,
    poolSize: 8,
    statementTimeoutMs: 60_000,
    connectTimeoutMs: 5_000,
  });
}
