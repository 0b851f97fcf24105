import { SqlPlantRepository } from '@plantstore/adapters-persistence';
import { Plant, PlantId } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { testEngines } from '../engines.js';
import { undoMigrationsThrough } from '../support/migrations.js';
import { useFreshStore } from '../support/use-store.js';
import { validNameSearch as search } from '../support/valid-inputs.js';

const AT = '2026-11-20T10:00:00.000Z';

/** Plants as the release before held them: live ones, and a tombstone (no name) of a deleted one. */
const OLD_PLANTS: ReadonlyArray<readonly [id: string, name: string | null]> = [
  ['-9223372036854775808', 'Fougère aigle'],
  ['3', null],
  ['9007199254740993', 'STRAẞENBAUM'],
  ['9223372036854775807', 'Fougère mâle'],
];

async function found(dataSource: DataSource, text: string): Promise<string[]> {
  const plants = new SqlPlantRepository(dataSource);
  const page = await plants.listPage({ after: undefined, tags: [], name: search(text), limit: 100 });
  return page.map((p) => p.id.toString());
}

async function insertOld(dataSource: DataSource, postgres: boolean): Promise<void> {
  for (const [id, name] of OLD_PLANTS) {
    const deletedAt = name === null ? AT : null;
    await dataSource.query(
      `INSERT INTO plant (id, name, tag, created_by_token_id, created_at, version, deleted_at)
        VALUES (${postgres ? '$1, $2, NULL, NULL, $3, $4, $5' : '?, ?, NULL, NULL, ?, ?, ?'})`,
      [postgres ? id : BigInt(id), name, AT, name === null ? 2 : 1, deletedAt],
    );
  }
}

/*
 * The migration that brings name search, run on a store that already holds plants, as an
 * upgrade meets it: the old plants are found by name at once, through the index it builds.
 */
describe.each(testEngines())('upgrading a $name store to name search', (engine) => {
  const open = useFreshStore(engine);
  const postgres = engine.name === 'postgres';

  beforeAll(async () => {
    const { dataSource } = open();
    await undoMigrationsThrough(dataSource, 'AddPlantNameSearch1764288000000');
    await insertOld(dataSource, postgres);
    await dataSource.runMigrations();
  });

  it('finds the plants stored before by name, case and accents aside, and never the deleted one', async () => {
    const { dataSource } = open();
    expect(await found(dataSource, 'FOUGERE')).toEqual(['-9223372036854775808', '9223372036854775807']);
    expect(await found(dataSource, 'strassenb')).toEqual(['9007199254740993']);
    expect(await found(dataSource, 'ma')).toEqual(['9223372036854775807']);
  });

  it('builds the trigram index the search reads', async () => {
    const { dataSource } = open();
    const indexes: Array<{ name: string }> = postgres
      ? await dataSource.query(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'plant'`)
      : await dataSource.query(`SELECT name FROM sqlite_master WHERE name LIKE 'plant_name_search%'`);
    expect(indexes.map((index) => index.name)).toContain(postgres ? 'plant_name_key_trigrams' : 'plant_name_search');
  });

  // PostgreSQL's GIN index is kept by the writes themselves.
  if (!postgres)
    it('indexes the plants stored before, and leaves the later ones to passes, not triggers', async () => {
      const { dataSource } = open();
      const triggers: Array<{ name: string }> = await dataSource.query(
        `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'plant_name_search%'`,
      );
      expect(triggers).toEqual([]);
      const [position]: Array<{ feed_commit: number; plant_id: string }> = await dataSource.query(
        'SELECT feed_commit, CAST(plant_id AS TEXT) AS plant_id FROM plant_name_index',
      );
      const [newest]: Array<{ feed_commit: number; id: string }> = await dataSource.query(
        'SELECT feed_commit, CAST(id AS TEXT) AS id FROM plant ORDER BY feed_commit DESC, id DESC LIMIT 1',
      );
      expect(position).toEqual({ feed_commit: newest!.feed_commit, plant_id: newest!.id });
    });

  it('keeps the index with every create, change and delete afterwards', async () => {
    const { dataSource } = open();
    const plants = new SqlPlantRepository(dataSource);
    const fern = Plant.parse({ id: '10', name: 'FOUGÈRE royale' });
    const renamed = Plant.parse({ id: '-9223372036854775808', name: 'Osmonde' });
    if (!fern.ok || !renamed.ok) throw new Error('test plants are invalid');
    await plants.insertIfAbsent(fern.plant, { createdByTokenId: undefined, createdAt: new Date(AT) });
    expect(await plants.replace(renamed.plant, 1, { changedAt: new Date(AT) })).toBe(true);
    expect(
      await plants.retire(PlantId.fromStored('9223372036854775807'), 1, {
        retiredAt: new Date(AT),
        retiredByTokenId: undefined,
      }),
    ).toBe(true);
    expect(await found(dataSource, 'fougere')).toEqual(['10']);
    expect(await found(dataSource, 'osmond')).toEqual(['-9223372036854775808']);
  });

  it('undoes itself: the key and its index go, the plants stay', async () => {
    const { dataSource } = open();
    await undoMigrationsThrough(dataSource, 'AddPlantNameSearch1764288000000');
    try {
      const columns: Array<{ name: string }> = postgres
        ? await dataSource.query(
            `SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'plant'`,
          )
        : await dataSource.query(`SELECT name FROM pragma_table_info('plant')`);
      expect(columns.map((column) => column.name)).not.toContain('name_key');
      const count: Array<{ n: string | number }> = await dataSource.query('SELECT COUNT(*) AS n FROM plant');
      expect(Number(count[0]!.n)).toBe(OLD_PLANTS.length + 1);
    } finally {
      await dataSource.runMigrations();
    }
    expect(await found(dataSource, 'osmonde')).toEqual(['-9223372036854775808']);
  });
});
