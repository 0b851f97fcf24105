import { Plant, PlantId, type PlantProvenance } from '@plantstore/domain';
import { SqlPlantRepository, SqlStore } from '@plantstore/adapters-persistence';
import type { DataSource } from 'typeorm';
import { SqlRunner } from '../../src/connection/sql-runner.js';
import { NameIndexPasses, SqliteNameIndex } from '../../src/plants/sqlite-name-index.js';
import { sqliteEngine } from '../engines.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validNameSearch as search, validPlant } from '../support/valid-inputs.js';

const provenance: PlantProvenance = { createdByTokenId: undefined, createdAt: new Date('2026-11-27T06:00:00Z') };

const plant = (id: string, name: string): Plant => validPlant({ id, name });

async function found(plants: SqlPlantRepository, text: string, limit = 100): Promise<string[]> {
  const page = await plants.listPage({ after: undefined, tags: [], name: search(text), limit });
  return page.map((p) => p.id.toString());
}

/** What the FTS table holds for a trigram: the ids a search would test. */
async function indexedUnder(dataSource: DataSource, trigram: string): Promise<string[]> {
  const rows: Array<{ id: number }> = await dataSource.query(
    'SELECT rowid AS id FROM plant_name_search WHERE plant_name_search MATCH ? ORDER BY rowid',
    [`"${trigram}"`],
  );
  return rows.map((row) => String(row.id));
}

/*
 * SQLite's name index is kept in passes after the writes (docs/storage.md#finding-plants-by-name):
 * a search is exact before a pass as after it, and a pass brings the index to the plants as they are.
 */
describe('SQLite name index passes', () => {
  const open = useFreshStore(sqliteEngine);
  let plants: SqlPlantRepository;
  let index: SqliteNameIndex;

  beforeEach(async () => {
    const { dataSource } = open();
    await clearStore(dataSource);
    // What the last test left in the index, so each test sees only its own plants there.
    await dataSource.query(`INSERT INTO plant_name_search (plant_name_search) VALUES ('delete-all')`);
    plants = new SqlPlantRepository(dataSource);
    index = new SqliteNameIndex(new SqlRunner(dataSource), 2);
  });

  it('finds plants written since the last pass, and the same plants once a pass indexed them', async () => {
    await plants.insertIfAbsent(plant('3', 'Fougère aigle'), provenance);
    await plants.insertIfAbsent(plant('1', 'Fougère mâle'), provenance);
    await plants.insertIfAbsent(plant('2', 'Monstera'), provenance);
    expect(await index.behind()).toBe(true);
    expect(await found(plants, 'fougere')).toEqual(['1', '3']);

    // Two plants a pass here: the first pass stops in the middle of the plants written.
    expect(await index.pass()).toBe(2);
    expect(await found(plants, 'fougere')).toEqual(['1', '3']);
    await index.catchUp();
    expect(await index.behind()).toBe(false);
    expect(await indexedUnder(open().dataSource, 'fou')).toEqual(['1', '3']);
    expect(await found(plants, 'fougere')).toEqual(['1', '3']);
    expect(await found(plants, 'fougere', 1)).toEqual(['1']);
  });

  it('finds a renamed plant by its new name and never by its old one, before and after the pass', async () => {
    await plants.insertIfAbsent(plant('5', 'Fougère royale'), provenance);
    await index.catchUp();
    expect(await plants.replace(plant('5', 'Osmonde'), 1, { changedAt: new Date() })).toBe(true);
    expect(await found(plants, 'fougere')).toEqual([]);
    expect(await found(plants, 'osmond')).toEqual(['5']);
    await index.catchUp();
    expect(await indexedUnder(open().dataSource, 'fou')).toEqual([]);
    expect(await indexedUnder(open().dataSource, 'osm')).toEqual(['5']);
    expect(await found(plants, 'fougere')).toEqual([]);
    expect(await found(plants, 'osmond')).toEqual(['5']);
  });

  it('never finds a deleted plant, whose key a pass leaves in the index as its tombstone stays', async () => {
    await plants.insertIfAbsent(plant('7', 'Calathea'), provenance);
    await index.catchUp();
    expect(
      await plants.retire(PlantId.fromStored('7'), 1, { retiredAt: new Date(), retiredByTokenId: undefined }),
    ).toBe(true);
    expect(await found(plants, 'calath')).toEqual([]);
    await index.catchUp();
    expect(await indexedUnder(open().dataSource, 'cal')).toEqual(['7']);
    expect(await found(plants, 'calath')).toEqual([]);
  });

  it('indexes a plant written after the index moved past plants removed by hand', async () => {
    await plants.insertIfAbsent(plant('8', 'Pilea'), provenance);
    await index.catchUp();
    // Rows are never deleted by the store; an operator's DELETE must not hide later plants.
    await clearStore(open().dataSource);
    await plants.insertIfAbsent(plant('9', 'Pilea peperomioides'), provenance);
    expect(await index.behind()).toBe(true);
    await index.catchUp();
    expect(await found(plants, 'pilea')).toEqual(['9']);
  });
});

describe('SqlStore on SQLite keeps its name index current', () => {
  it('indexes plants written through it within a few passes, and stops its passes when closed', async () => {
    const store = await sqliteEngine.createStore();
    const sql = await SqlStore.open(store.config());
    try {
      await sql.plants.insertIfAbsent(plant('11', 'Sansevieria'), provenance);
      const index = new SqliteNameIndex(new SqlRunner(sql.dataSource));
      const deadline = Date.now() + 5000;
      while ((await index.behind()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await index.behind()).toBe(false);
      expect(await indexedUnder(sql.dataSource, 'san')).toEqual(['11']);
    } finally {
      await sql.close();
      await store.remove();
    }
  });

  it('says once that passes fail, and once that they succeed again', async () => {
    const warnings: string[] = [];
    let failing = true;
    const index = {
      behind: async () => true,
      catchUp: async () => {
        if (failing) throw new Error('database is locked');
      },
    } as unknown as SqliteNameIndex;
    const passes = new NameIndexPasses(index, { warn: (message) => warnings.push(message) }, 5);
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('database is locked');
      failing = false;
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(warnings).toEqual([warnings[0], 'name index passes succeed again']);
    } finally {
      await passes.stop();
    }
  });
});
