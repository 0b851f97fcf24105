import { FEED_ORIGIN, Plant, PlantId, type FeedPosition, type PlantChangeFeed } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { sqliteEngine, testEngines } from '../engines.js';
import { feedSettled } from '../../../../test-support/feed-settled.js';
import { feedingStore } from '../support/feeding-store.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant } from '../support/valid-inputs.js';

const provenance = { createdByTokenId: undefined, createdAt: new Date('2026-11-27T00:00:00.000Z') };

const plant = (id: number, name: string): Plant => validPlant({ id: `${id}`, name });

/** Reads pages after `at` until an empty one, keeping each plant's last version; resolves with where it stopped. */
async function follow(feed: PlantChangeFeed, at: FeedPosition, copy: Map<string, number>): Promise<FeedPosition> {
  for (;;) {
    const page = await feed.readAfter(at, 7);
    if (page.length === 0) return at;
    for (const { entry, position } of page) {
      const id = (entry.deleted ? entry.id : entry.plant.id).toString();
      expect(entry.version).toBeGreaterThanOrEqual(copy.get(id) ?? 0);
      copy.set(id, entry.deleted ? -entry.version : entry.version);
      at = position;
    }
  }
}

async function storeVersions(dataSource: DataSource): Promise<Map<string, number>> {
  const rows = await dataSource.query<
    Array<{
      id: string;
      version: number;
      deleted_at: unknown;
    }>
  >('SELECT CAST(id AS TEXT) AS id, version, deleted_at FROM plant');
  return new Map(rows.map((row) => [row.id, row.deleted_at === null ? row.version : -row.version]));
}

const sortedEntries = (versions: Map<string, number>) => [...versions].sort(([a], [b]) => Number(a) - Number(b));

describe.each(testEngines())('the change feed of two instances writing on one $name database', (engine) => {
  const open = useFreshStore(engine);
  let other: DataSource;
  beforeAll(async () => {
    // The server and the CLI's import on one SQLite file, or two servers on one PostgreSQL database.
    other = await open().store.open();
  });
  afterAll(() => other?.destroy());
  beforeEach(() => clearStore(open().dataSource));

  it('gives a follower reading all along every plant at its last version', async () => {
    const instances = [feedingStore(open().dataSource), feedingStore(other)];
    const follower = feedingStore(open().dataSource);
    const copy = new Map<string, number>();
    let at = FEED_ORIGIN;
    let writing = true;
    const reading = (async () => {
      while (writing) {
        at = await follow(follower, at, copy);
        // A poller's tick: SQLite answers at once, and a loop of microtasks alone would starve the writers.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    await Promise.all(
      instances.map(async (store, instance) => {
        for (let round = 0; round < 20; round++) {
          const base = instance * 1000 + round * 10;
          await Promise.all([
            store.insertAllIfAbsent([plant(base + 1, 'batch'), plant(base + 2, 'batch')], provenance),
            store.insertIfAbsent(plant(base + 3, 'single'), provenance),
          ]);
          await Promise.all([
            store.replace(plant(base + 1, 'changed'), 1, { changedAt: new Date() }),
            store.retire(PlantId.fromStored(`${base + 2}`), 1, { retiredAt: new Date(), retiredByTokenId: undefined }),
          ]);
        }
      }),
    );
    writing = false;
    await reading;
    await feedSettled(follower.feed);
    await follow(follower, at, copy);
    const expected = await storeVersions(open().dataSource);
    expect(expected.size).toBe(120);
    expect(sortedEntries(copy)).toEqual(sortedEntries(expected));
  });
});

describe('the change feed on SQLite', () => {
  const open = useFreshStore(sqliteEngine);
  beforeEach(() => clearStore(open().dataSource));

  it('serves while a reader holds its snapshot open, and writes do not wait for the reader', async () => {
    const store = feedingStore(open().dataSource);
    await store.insertIfAbsent(plant(1, 'read'), provenance);
    const reader = await open().store.open();
    try {
      await reader.query('BEGIN');
      const readerFeed = feedingStore(reader);
      expect((await readerFeed.readAfter(FEED_ORIGIN, 10)).length).toBe(1);
      // Were the writes to wait for the reader, they would time out as busy: it ends after them.
      await expect(store.replace(plant(1, 'written'), 1, { changedAt: new Date() })).resolves.toBe(true);
      await expect(store.insertIfAbsent(plant(2, 'new'), provenance)).resolves.toEqual({ inserted: true });
      await reader.query('COMMIT');
    } finally {
      await reader.destroy();
    }
    expect((await store.readAfter(FEED_ORIGIN, 10)).map(({ position }) => position.commit)).toEqual([2n, 3n]);
  });

  it('gives every row one write changed the same commit, one more than the last', async () => {
    const store = feedingStore(open().dataSource);
    await store.insertIfAbsent(plant(9, 'first'), provenance);
    await store.insertAllIfAbsent([plant(3, 'a'), plant(1, 'b'), plant(2, 'c')], provenance);
    const positions = (await store.readAfter(FEED_ORIGIN, 10)).map(({ position }) => [position.commit, position.id]);
    expect(positions).toEqual([
      [1n, 9n],
      [2n, 1n],
      [2n, 2n],
      [2n, 3n],
    ]);
  });
});
