import { ChangeCursor } from '../../changes/change-cursor.js';
import { ChangesQuery } from '../../changes/changes-query.js';
import { compareFeedPositions, FEED_ORIGIN, type FeedPosition } from '../../changes/feed-position.js';
import { FollowChanges } from '../../changes/follow-changes.js';
import type { PlantChangeFeed, PositionedFeedEntry } from '../../changes/plant-change-feed.js';
import type { PlantRetirement } from '../../plants/plant-change-repository.js';
import { PlantId } from '../../plants/plant-id.js';
import type { PlantProvenance } from '../../plants/plant-repository.js';
import { ensure, ensureEqual, plant, show, type ContractCheck } from './check.js';
import type { ChangingPlantStore } from './plant-change-repository.contract.js';

const provenance: PlantProvenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };
const revision = { changedAt: new Date('2025-06-02T12:00:00.000Z') };
const retirement: PlantRetirement = { retiredAt: new Date('2025-06-03T12:00:00.000Z'), retiredByTokenId: undefined };
const TWO_TO_53 = 9007199254740992n;

/** A store with every plant port and its change feed: the feed is checked against what the others stored. */
export type FeedingPlantStore = ChangingPlantStore & PlantChangeFeed;

export interface PlantChangeFeedSubject {
  /** A store holding no plant; called once at the start of every check. */
  empty(): Promise<FeedingPlantStore>;
  /**
   * The same stored data opened again, as after a restart (another connection, nothing kept in
   * memory). Absent: the store itself is answered, for a store that has nothing to reopen.
   */
  reopen?(store: FeedingPlantStore): Promise<FeedingPlantStore>;
  /**
   * Resolves once the feed can serve every change committed so far, for a store that may lag
   * behind transactions open elsewhere (PostgreSQL: until none holds the horizon back). Absent:
   * at once.
   */
  settled?(store: FeedingPlantStore): Promise<void>;
}

/** A follower's copy: per id, the last entry it was told, as plain data. */
type Copy = Map<string, { readonly version: number; readonly state: unknown }>;

function id(value: bigint | string): PlantId {
  return PlantId.fromStored(value);
}

function plainOf({ entry }: PositionedFeedEntry): { readonly id: string; readonly version: number; state: unknown } {
  return entry.deleted
    ? { id: entry.id.toString(), version: entry.version, state: 'deleted' }
    : { id: entry.plant.id.toString(), version: entry.version, state: entry.plant.toJSON() };
}

/**
 * Reads pages of `limit` from `after` until one is empty, checking each page's shape (at most
 * `limit` entries, ascending positions after the cursor, a plant once), and applies them to `copy`.
 * Resolves with every entry read and the position it ended at.
 */
async function follow(
  feed: PlantChangeFeed,
  after: FeedPosition,
  limit: number,
  copy: Copy = new Map(),
): Promise<{ readonly entries: PositionedFeedEntry[]; readonly at: FeedPosition; readonly copy: Copy }> {
  const entries: PositionedFeedEntry[] = [];
  let at = after;
  for (let pages = 0; ; pages++) {
    ensure(pages < 10_000, 'the feed never answered an empty page');
    const page = await feed.readAfter(at, limit);
    ensure(page.length <= limit, `a page of limit ${limit} held ${page.length} entries`);
    if (page.length === 0) return { entries, at, copy };
    const ids = new Set(page.map((e) => plainOf(e).id));
    ensure(ids.size === page.length, `a page told a plant twice: ${show(page.map((e) => plainOf(e).id))}`);
    for (const entry of page) {
      ensure(
        compareFeedPositions(entry.position, at) > 0,
        `position ${show(entry.position)} is not after ${show(at)}, the position before it`,
      );
      at = entry.position;
      const { id: key, version, state } = plainOf(entry);
      copy.set(key, { version, state });
      entries.push(entry);
    }
  }
}

/** What the store holds for these ids, as a follower's copy would hold it. */
async function storeAsCopy(store: ChangingPlantStore, ids: Iterable<string>): Promise<Copy> {
  const copy: Copy = new Map();
  for (const key of ids) {
    const state = await store.stateOf(id(key));
    if (state !== undefined)
      copy.set(key, { version: state.version, state: state.live ? state.plant.toJSON() : 'deleted' });
  }
  return copy;
}

/** A copy as plain data, by id value. */
function shown(copy: Copy): unknown {
  return [...copy].sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/** Creates, a batch, changes and deletions, over ids at the edges of int64; answers every id written. */
async function writeHistory(store: FeedingPlantStore): Promise<string[]> {
  await store.insertIfAbsent(plant({ id: '1', name: 'Fern', tag: 'shade' }), provenance);
  await store.insertIfAbsent(plant({ id: '2', name: 'Aloe' }), provenance);
  await store.insertAllIfAbsent(
    [
      plant({ id: PlantId.MAX, name: 'max' }),
      plant({ id: TWO_TO_53 + 1n, name: 'odd' }),
      plant({ id: TWO_TO_53, name: 'even' }),
      plant({ id: PlantId.MIN, name: 'min', tag: 'edge' }),
      plant({ id: '3', name: 'Ivy' }),
    ],
    provenance,
  );
  await store.replace(plant({ id: '1', name: 'Boston fern' }), 1, revision);
  await store.retire(id('2'), 1, retirement);
  await store.replace(plant({ id: TWO_TO_53 + 1n, name: 'odd, renamed', tag: 'x' }), 1, revision);
  await store.replace(plant({ id: TWO_TO_53 + 1n, name: 'odd, again' }), 2, revision);
  await store.retire(id('3'), 1, retirement);
  return ['1', '2', '3', `${PlantId.MAX}`, `${TWO_TO_53 + 1n}`, `${TWO_TO_53}`, `${PlantId.MIN}`];
}

/** The checks every PlantChangeFeed must pass (see the port's comments). */
export function plantChangeFeedContract(subject: PlantChangeFeedSubject): ContractCheck[] {
  const settled = (store: FeedingPlantStore) => subject.settled?.(store) ?? Promise.resolve();
  const reopen = (store: FeedingPlantStore) => subject.reopen?.(store) ?? Promise.resolve(store);
  return [
    {
      name: 'has no change and no newest position while no plant was ever stored',
      run: async () => {
        const store = await subject.empty();
        ensureEqual(await store.readAfter(FEED_ORIGIN, 10), [], 'readAfter the origin');
        ensureEqual(await store.newestPosition(), undefined, 'newestPosition');
      },
    },
    {
      name: 'tells every plant once, at its latest state and version, deletions as deleted, whatever the page size',
      run: async () => {
        const store = await subject.empty();
        const ids = await writeHistory(store);
        await settled(store);
        const expected = shown(await storeAsCopy(store, ids));
        ensure(show(expected).includes('"deleted"'), 'contract suite bug: the history deletes plants');
        for (const limit of [1, 2, 3, 1000]) {
          const { entries, copy } = await follow(store, FEED_ORIGIN, limit);
          ensureEqual(entries.length, ids.length, `entries read in pages of ${limit}`);
          ensureEqual(shown(copy), expected, `the copy made in pages of ${limit}`);
        }
      },
    },
    {
      name: 'brings a copy made up to any cursor to the store’s state by following next once writes stop',
      run: async () => {
        const store = await subject.empty();
        const written = new Set<string>();
        const stops: Array<{ readonly at: FeedPosition; readonly copy: Copy }> = [];
        let follower = { at: FEED_ORIGIN, copy: new Map() as Copy };
        // A follower reads between the writes: each place it stopped is a cursor with its copy.
        for (let round = 0; round < 4; round++) {
          const base = BigInt(round * 10);
          await store.insertAllIfAbsent(
            [plant({ id: base + 1n, name: `a${round}` }), plant({ id: base + 2n, name: `b${round}` })],
            provenance,
          );
          await store.insertIfAbsent(plant({ id: base + 3n, name: `c${round}` }), provenance);
          if (round > 0) {
            await store.replace(plant({ id: base - 9n, name: `a${round - 1}, changed` }), 1, revision);
            await store.retire(id(base - 8n), 1, retirement);
          }
          for (const n of [1n, 2n, 3n]) written.add((base + n).toString());
          await settled(store);
          const read = await follow(store, follower.at, 2, new Map(follower.copy));
          follower = { at: read.at, copy: read.copy };
          stops.push({ at: read.at, copy: new Map(read.copy) });
        }
        await settled(store);
        const expected = shown(await storeAsCopy(store, written));
        for (const stop of [{ at: FEED_ORIGIN, copy: new Map() as Copy }, ...stops]) {
          const { copy } = await follow(store, stop.at, 3, new Map(stop.copy));
          ensureEqual(shown(copy), expected, `the copy followed on from ${show(stop.at)}`);
        }
      },
    },
    {
      name: 'never lowers a plant’s version for a follower, and never brings a deleted plant back',
      run: async () => {
        const store = await subject.empty();
        const seen: Array<{ readonly id: string; readonly version: number; readonly state: unknown }> = [];
        let at = FEED_ORIGIN;
        await store.insertAllIfAbsent(
          [1, 2, 3].map((n) => plant({ id: `${n}`, name: `v1 of ${n}` })),
          provenance,
        );
        for (let version = 1; version <= 4; version++) {
          const read = await follow(store, at, 1);
          seen.push(...read.entries.map(plainOf));
          at = read.at;
          await store.replace(plant({ id: '1', name: `v${version + 1} of 1` }), version, revision);
          if (version === 2) await store.retire(id('2'), 1, retirement);
          if (version < 4) await store.replace(plant({ id: '3', name: `v${version + 1} of 3` }), version, revision);
        }
        await settled(store);
        seen.push(...(await follow(store, at, 1)).entries.map(plainOf));
        const last = new Map<string, { version: number; state: unknown }>();
        for (const entry of seen) {
          const before = last.get(entry.id);
          ensure(
            before === undefined || entry.version >= before.version,
            `plant ${entry.id} went from version ${before?.version} to ${entry.version}`,
          );
          ensure(before?.state !== 'deleted' || entry.state === 'deleted', `deleted plant ${entry.id} came back`);
          last.set(entry.id, entry);
        }
        ensureEqual(
          [...last].sort(),
          [
            ['1', { id: '1', version: 5, state: { id: '1', name: 'v5 of 1' } }],
            ['2', { id: '2', version: 2, state: 'deleted' }],
            ['3', { id: '3', version: 4, state: { id: '3', name: 'v4 of 3' } }],
          ],
          'the last entry of each plant',
        );
      },
    },
    {
      name: 'places a change committed after a read after every position that read answered',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '5', name: 'first' }), provenance);
        await store.insertIfAbsent(plant({ id: '9', name: 'second' }), provenance);
        await settled(store);
        const { entries, at } = await follow(store, FEED_ORIGIN, 10);
        ensureEqual(entries.length, 2, 'entries before the change');
        // The plant at the newest position moves on: a cursor at its old place stays valid.
        await store.replace(plant({ id: '9', name: 'second, changed' }), 1, revision);
        const newest = await store.newestPosition();
        ensure(
          newest !== undefined && compareFeedPositions(newest, at) >= 0,
          `newestPosition ${show(newest)} fell below ${show(at)}, a position already answered`,
        );
        await store.replace(plant({ id: '5', name: 'first, changed' }), 1, revision);
        await store.insertIfAbsent(plant({ id: '1', name: 'lowest id' }), provenance);
        await settled(store);
        const after = (await follow(store, at, 10)).entries.map(plainOf);
        ensureEqual(
          after.map((e) => e.id).sort(),
          ['1', '5', '9'],
          'plants changed after the read, read from its last position',
        );
      },
    },
    {
      name: 'places every change committed after newestPosition answered after it, so a copy read then follows on exactly',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '5', name: 'first' }), provenance);
        await store.insertAllIfAbsent(
          [plant({ id: '9', name: 'second' }), plant({ id: '7', name: 'third' })],
          provenance,
        );
        // Not settled: the position must be a safe start even while the feed lags behind.
        const now = await store.newestPosition();
        ensure(now !== undefined, 'newestPosition is undefined after plants were stored');
        const ids = ['1', '5', '7', '9', `${PlantId.MAX}`];
        const copy = await storeAsCopy(store, ids);
        // Later commits, at ids below and above the plants of the last one.
        await store.replace(plant({ id: '9', name: 'second, changed' }), 1, revision);
        await store.retire(id('5'), 1, retirement);
        await store.insertIfAbsent(plant({ id: '1', name: 'lowest id' }), provenance);
        await store.insertIfAbsent(plant({ id: PlantId.MAX, name: 'highest id' }), provenance);
        await settled(store);
        const read = await follow(store, now!, 3, copy);
        const readIds = read.entries.map((e) => plainOf(e).id);
        // Every change after it, and nothing skipped. A store whose present is a bound (PostgreSQL's
        // horizon, which a transaction open elsewhere in the cluster holds back) may hand a plant
        // committed before it again, as it was: the copy below stays exact either way.
        for (const changed of ['1', '5', '9', `${PlantId.MAX}`])
          ensure(
            readIds.includes(changed),
            `plant ${changed}, changed after newestPosition ${show(now)}, was not read from it (read: ${readIds.join(', ')})`,
          );
        ensureEqual(shown(read.copy), shown(await storeAsCopy(store, ids)), 'the copy read then, followed on from it');
      },
    },
    {
      name: 'keeps every position across a reopening, so an old cursor reads what it read before',
      run: async () => {
        const store = await subject.empty();
        await writeHistory(store);
        await settled(store);
        const before = await follow(store, FEED_ORIGIN, 1000);
        const middle = before.entries[2]!.position;
        const fromMiddle = await follow(store, middle, 2);
        const again = await reopen(store);
        const after = await follow(again, FEED_ORIGIN, 1000);
        ensureEqual(after.entries, before.entries, 'every entry and position after reopening');
        ensureEqual(
          (await follow(again, middle, 2)).entries,
          fromMiddle.entries,
          'the entries after a cursor, after reopening',
        );
        const newest = await again.newestPosition();
        ensure(
          newest !== undefined && compareFeedPositions(newest, before.at) >= 0,
          `newestPosition after reopening ${show(newest)} is below ${show(before.at)}, a position answered before`,
        );
      },
    },
    {
      name: 'answers an empty page with the cursor it was given, and refuses a cursor beyond its newest position',
      run: async () => {
        const store = await subject.empty();
        const following = new FollowChanges(store);
        const query = (after?: string) => {
          const parsed = ChangesQuery.parse({ after, limit: '10' });
          if (!parsed.ok) throw new Error(`contract suite bug: ${show(parsed.violations)}`);
          return parsed.query;
        };
        const first = await following.execute(query());
        ensureEqual(first, { outcome: 'page', changes: [], next: ChangeCursor.origin }, 'an empty store');
        await store.insertIfAbsent(plant({ id: '4', name: 'Fern' }), provenance);
        await settled(store);
        const page = await following.execute(query(ChangeCursor.origin));
        ensure(page.outcome === 'page' && page.changes.length === 1, `one change, got ${show(page)}`);
        const next = page.outcome === 'page' ? page.next : '';
        ensureEqual(
          await following.execute(query(next)),
          { outcome: 'page', changes: [], next },
          'the page after the last change',
        );
        const newest = (await store.newestPosition())!;
        const beyond = ChangeCursor.encode({ ...newest, epoch: newest.epoch + 1n });
        ensureEqual(
          await following.execute(query(beyond)),
          { outcome: 'unknown-cursor', parameter: 'after' },
          'a cursor beyond the newest position',
        );
      },
    },
  ];
}
