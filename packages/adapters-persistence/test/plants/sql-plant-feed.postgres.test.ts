import {
  ChangeCursor,
  ChangesQuery,
  FEED_ORIGIN,
  FollowChanges,
  Plant,
  PlantId,
  type FeedPosition,
  type PlantChangeFeed,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import {
  connectPostgres,
  createPostgresDatabase,
  type FreshPostgresDatabase,
} from '../../../../test-support/postgres-databases.js';
import { postgresAdminUrl, postgresEngine, reportIfPostgresSkipped } from '../engines.js';
import { feedSettled } from '../../../../test-support/feed-settled.js';
import { feedingStore } from '../support/feeding-store.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant } from '../support/valid-inputs.js';

reportIfPostgresSkipped();
const adminUrl = postgresAdminUrl();
const describeOnPostgres = adminUrl === undefined ? describe.skip : describe;
const engine = postgresEngine(adminUrl ?? '');

const provenance = { createdByTokenId: undefined, createdAt: new Date('2026-11-27T00:00:00.000Z') };

const plant = (id: string, name: string): Plant => validPlant({ id, name });

/** A follower's copy: per id, the last state it was told, as plain data. */
type Copy = Map<string, unknown>;

/** Reads pages after `at` until an empty one, applying them to `copy`; resolves with where it stopped. */
async function follow(feed: PlantChangeFeed, at: FeedPosition, copy: Copy): Promise<FeedPosition> {
  for (;;) {
    const page = await feed.readAfter(at, 100);
    if (page.length === 0) return at;
    for (const { entry, position } of page) {
      if (entry.deleted) copy.set(entry.id.toString(), { version: entry.version, deleted: true });
      else copy.set(entry.plant.id.toString(), { ...entry.plant.toJSON(), version: entry.version });
      at = position;
    }
  }
}

/** Every plant as the store holds it, as a follower's copy would. */
async function storeCopy(dataSource: DataSource): Promise<Copy> {
  const rows = await dataSource.query<
    Array<{ id: string; name: string | null; tag: string | null; version: number; deleted_at: Date | null }>
  >('SELECT CAST(id AS TEXT) AS id, name, tag, version, deleted_at FROM plant');
  return new Map(
    rows.map((row) => [
      row.id,
      row.deleted_at !== null
        ? { version: row.version, deleted: true }
        : { id: row.id, name: row.name, ...(row.tag === null ? {} : { tag: row.tag }), version: row.version },
    ]),
  );
}

function sorted(copy: Copy): unknown {
  return [...copy].sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/*
 * The trap a feed on PostgreSQL must avoid: a position taken inside a transaction is not commit
 * order, so a transaction that took a lower one and commits later would be passed over by a
 * follower that already read a higher one.
 */
describeOnPostgres('the change feed on PostgreSQL, where positions are not commit order', () => {
  const open = useFreshStore(engine);
  let other: DataSource;

  beforeAll(async () => {
    // A second instance: a pool of its own on the same database.
    other = await open().store.open();
  });
  afterAll(() => other?.destroy());
  beforeEach(() => clearStore(open().dataSource));

  it('does not pass over a transaction that took its position first and committed last', async () => {
    const first = feedingStore(open().dataSource);
    const second = feedingStore(other);
    await first.insertIfAbsent(plant('1', 'before'), provenance);
    await feedSettled(first.feed);
    const copy: Copy = new Map();
    let at = await follow(first, FEED_ORIGIN, copy);

    // A: a slow transaction on the first instance, which takes its position (its id) now.
    const slow = open().dataSource.createQueryRunner();
    await slow.startTransaction();
    try {
      const [{ xid: slowXid }] = (await slow.query(
        `INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (2, 'slow', NULL, NULL, now())
         RETURNING CAST(feed_xid AS TEXT) AS xid`,
      )) as [{ xid: string }];
      // B: a create on the second instance, which takes a later position and commits at once.
      await second.insertIfAbsent(plant('3', 'quick'), provenance);
      const [{ xid: quickXid }] = await other.query<[{ xid: string }]>(
        'SELECT CAST(feed_xid AS TEXT) AS xid FROM plant WHERE id = 3',
      );
      expect(BigInt(quickXid)).toBeGreaterThan(BigInt(slowXid));

      // A follower reading now, on either instance, must not move past A's position.
      at = await follow(second, at, copy);
      expect(BigInt(at.commit)).toBeLessThan(BigInt(slowXid));
      expect([...copy.keys()]).toEqual(['1']);
      await slow.commitTransaction();
    } finally {
      if (slow.isTransactionActive) await slow.rollbackTransaction();
      await slow.release();
    }

    await feedSettled(first.feed);
    await follow(first, at, copy);
    expect(sorted(copy)).toEqual(sorted(await storeCopy(open().dataSource)));
    expect([...copy.keys()].sort()).toEqual(['1', '2', '3']);
  });

  it('lags behind a transaction left open in another database of the cluster, shows it in the lag, then catches up', async () => {
    const store = feedingStore(open().dataSource);
    await store.insertIfAbsent(plant('1', 'before'), provenance);
    await feedSettled(store.feed);
    const copy: Copy = new Map();
    let at = await follow(store, FEED_ORIGIN, copy);

    const elsewhere: FreshPostgresDatabase = await createPostgresDatabase(adminUrl!, 'plantstore_elsewhere_');
    const client = await connectPostgres(elsewhere.url);
    try {
      // An id taken and held: the cluster's horizon cannot pass it.
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      await store.insertAllIfAbsent([plant('2', 'two'), plant('3', 'three')], provenance);
      await store.replace(plant('1', 'changed'), 1, { changedAt: new Date('2026-11-27T00:00:01.000Z') });
      await store.retire(PlantId.fromStored('3'), 1, { retiredAt: new Date(), retiredByTokenId: undefined });

      at = await follow(store, at, copy);
      expect(sorted(copy)).toEqual([['1', { id: '1', name: 'before', version: 1 }]]);
      const lag = await store.feed.lag();
      expect(lag.changes).toBe(3);
      expect(lag.oldestChangedAt).toEqual(provenance.createdAt);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
      await elsewhere.drop();
    }

    await feedSettled(store.feed);
    expect(await store.feed.lag()).toEqual({ changes: 0, oldestChangedAt: undefined });
    await follow(store, at, copy);
    expect(sorted(copy)).toEqual([
      ['1', { id: '1', name: 'changed', version: 2 }],
      ['2', { id: '2', name: 'two', version: 1 }],
      ['3', { version: 2, deleted: true }],
    ]);
  });

  it('serves the feed while a reader holds its snapshot open, and writes do not wait for the reader', async () => {
    const store = feedingStore(open().dataSource);
    await store.insertIfAbsent(plant('1', 'read'), provenance);
    await feedSettled(store.feed);
    const reader = await open().store.open({ pgPoolSize: 1 });
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const readerFeed = feedingStore(reader);
      expect(
        (await readerFeed.readAfter(FEED_ORIGIN, 10)).map(({ entry }) => !entry.deleted && entry.plant.name.value),
      ).toEqual(['read']);
      // Were the writes to wait for the reader, they would never resolve: it ends after them.
      await expect(store.replace(plant('1', 'written'), 1, { changedAt: new Date() })).resolves.toBe(true);
      await expect(store.insertIfAbsent(plant('2', 'new'), provenance)).resolves.toEqual({ inserted: true });
      await reader.query('COMMIT');
    } finally {
      await reader.destroy();
    }
  });
});

/*
 * A database restored from a dump into another cluster, whose transaction ids are lower than
 * the stored ones: simulated by raising the stored positions above the cluster's ids. The next
 * start-up opens a new epoch, and a follower's cursor from before still sees every later change.
 */
describeOnPostgres('the change feed of a PostgreSQL database restored into another cluster', () => {
  const open = useFreshStore(engine);
  const opened: DataSource[] = [];
  afterAll(async () => {
    for (const dataSource of opened) await dataSource.destroy();
  });

  async function restart(): Promise<ReturnType<typeof feedingStore>> {
    const dataSource = await open().store.open();
    opened.push(dataSource);
    return feedingStore(dataSource);
  }

  async function epoch(): Promise<string> {
    const [row] = await open().dataSource.query<[{ epoch: string }]>(
      'SELECT CAST(epoch AS TEXT) AS epoch FROM plant_feed',
    );
    return row.epoch;
  }

  it('opens a new epoch at start-up, and a cursor handed out before misses nothing after it', async () => {
    const before = feedingStore(open().dataSource);
    await before.insertAllIfAbsent([plant('1', 'one'), plant('2', 'two'), plant('3', 'three')], provenance);
    await feedSettled(before.feed);
    const copy: Copy = new Map();
    const read = await follow(before, FEED_ORIGIN, copy);
    expect(copy.size).toBe(3);
    // The ids of the cluster the dump came from, far above this one's, in the rows and the follower's cursor.
    await open().dataSource.query('UPDATE plant SET feed_xid = feed_xid + 1000000000');
    const cursor = { ...read, commit: read.commit + 1_000_000_000n };
    expect(await epoch()).toBe('0');

    const after = await restart();
    expect(await epoch()).toBe('1');
    await after.insertIfAbsent(plant('4', 'four'), provenance);
    await after.replace(plant('1', 'one, changed'), 1, { changedAt: new Date() });
    await after.retire(PlantId.fromStored('2'), 1, { retiredAt: new Date(), retiredByTokenId: undefined });
    await feedSettled(after.feed);

    const query = ChangesQuery.parse({ after: ChangeCursor.encode(cursor), limit: '100' });
    if (!query.ok) throw new Error('the cursor must parse');
    const page = await new FollowChanges(after).execute(query.query);
    expect(page.outcome).toBe('page');
    if (page.outcome !== 'page') return;
    expect(page.changes.map(({ entry }) => (entry.deleted ? entry.id : entry.plant.id).toString()).sort()).toEqual([
      '1',
      '2',
      '4',
    ]);
    await follow(after, cursor, copy);
    expect(sorted(copy)).toEqual(sorted(await storeCopy(open().dataSource)));

    // A start-up that finds nothing moved keeps the epoch.
    await restart();
    expect(await epoch()).toBe('1');
  });

  it('opens a new epoch when the positions were recorded in another cluster', async () => {
    await open().dataSource.query(`UPDATE plant_feed SET cluster = 'another cluster'`);
    const previous = BigInt(await epoch());
    await restart();
    expect(BigInt(await epoch())).toBe(previous + 1n);
    const store = feedingStore(open().dataSource);
    await store.insertIfAbsent(plant('5', 'five'), provenance);
    await feedSettled(store.feed);
    const [newest] = (await store.readAfter(FEED_ORIGIN, 1000)).slice(-1);
    expect(newest?.position.epoch).toBe(previous + 1n);
  });
});
