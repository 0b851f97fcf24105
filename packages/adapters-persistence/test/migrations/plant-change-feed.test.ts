import { FEED_ORIGIN, Plant, type PositionedFeedEntry } from '@plantstore/domain';
import { testEngines } from '../engines.js';
import { feedSettled } from '../../../../test-support/feed-settled.js';
import { feedingStore } from '../support/feeding-store.js';
import { undoMigrationsThrough } from '../support/migrations.js';
import { useFreshStore } from '../support/use-store.js';

/** Plants and tombstones as a store of the release before held them: [id, name, tag, version, deleted]. */
const OLD_ROWS: ReadonlyArray<readonly [string, string | null, string | null, number, boolean]> = [
  ['-9223372036854775808', 'min', 'edge', 1, false],
  ['0', null, null, 2, true],
  ['9007199254740993', 'renamed twice', null, 3, false],
  ['9223372036854775807', null, null, 4, true],
];

function shown({ entry }: PositionedFeedEntry): unknown {
  return entry.deleted
    ? { id: entry.id.toString(), version: entry.version, deleted: true }
    : { ...entry.plant.toJSON(), version: entry.version };
}

/*
 * The migration that brings the change feed, run on a store that already holds plants and
 * tombstones, as an upgrade meets it: every plant is in the feed at its version, deleted ones
 * as deleted, and changes made afterwards come after them.
 */
describe.each(testEngines())('upgrading a $name store to the change feed', (engine) => {
  const open = useFreshStore(engine);

  beforeAll(async () => {
    const { dataSource } = open();
    await undoMigrationsThrough(dataSource, 'AddPlantChangeFeed1764201600000');
    const postgres = engine.name === 'postgres';
    const placeholders = postgres ? '$1, $2, $3, $4, $5, $6, $7' : '?, ?, ?, ?, ?, ?, ?';
    const at = '2026-11-20T10:00:00.000Z';
    for (const [id, name, tag, version, deleted] of OLD_ROWS) {
      await dataSource.query(
        `INSERT INTO plant (id, name, tag, created_at, version, changed_at, deleted_at) VALUES (${placeholders})`,
        [postgres ? id : BigInt(id), name, tag, at, version, deleted ? null : at, deleted ? at : null],
      );
    }
    await dataSource.runMigrations();
  });

  it('tells every plant and tombstone held before, at its version', async () => {
    const store = feedingStore(open().dataSource);
    await feedSettled(store.feed);
    const entries = await store.readAfter(FEED_ORIGIN, 100);
    expect(entries.map(shown)).toEqual([
      { id: '-9223372036854775808', name: 'min', tag: 'edge', version: 1 },
      { id: '0', version: 2, deleted: true },
      { id: '9007199254740993', name: 'renamed twice', version: 3 },
      { id: '9223372036854775807', version: 4, deleted: true },
    ]);
  });

  it('places the changes made after the upgrade after every plant held before', async () => {
    const store = feedingStore(open().dataSource);
    await feedSettled(store.feed);
    const held = await store.readAfter(FEED_ORIGIN, 100);
    const renamed = Plant.parse({ id: '-9223372036854775808', name: 'min, renamed' });
    const created = Plant.parse({ id: '5', name: 'new' });
    if (!renamed.ok || !created.ok) throw new Error('test plants are invalid');
    expect(await store.replace(renamed.plant, 1, { changedAt: new Date() })).toBe(true);
    await store.insertIfAbsent(created.plant, { createdByTokenId: undefined, createdAt: new Date() });
    await feedSettled(store.feed);
    const after = await store.readAfter(held.at(-1)!.position, 100);
    expect(after.map(shown)).toEqual([
      { id: '-9223372036854775808', name: 'min, renamed', version: 2 },
      { id: '5', name: 'new', version: 1 },
    ]);
  });
});
