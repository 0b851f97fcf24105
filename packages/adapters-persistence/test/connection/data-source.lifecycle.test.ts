import { SqlPlantRepository, migrations } from '@plantstore/adapters-persistence';
import { CreatePlant } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { testEngines, type TestStore } from '../engines.js';
import { plantRows } from '../support/rows.js';
import { FixedClock } from '@plantstore/domain/testing';
import { validPlant as plant } from '../support/valid-inputs.js';

async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> = await dataSource.query('SELECT name FROM migrations ORDER BY id');
  return rows.map((row) => row.name);
}

describe.each(testEngines())('opening and reopening a $name store', (engine) => {
  // Each test starts from an empty database of its own: these tests are about first opens.
  let store: TestStore | undefined;
  const opened: DataSource[] = [];

  beforeEach(async () => {
    store = await engine.createStore();
  });
  afterEach(async () => {
    for (const dataSource of opened.splice(0)) if (dataSource.isInitialized) await dataSource.destroy();
    await store?.remove();
    store = undefined;
  });

  async function openStore(): Promise<DataSource> {
    if (store === undefined) throw new Error(`no ${engine.name} store (see the beforeEach failure)`);
    const dataSource = await store.open();
    opened.push(dataSource);
    return dataSource;
  }

  it('applies every migration on first open', async () => {
    const dataSource = await openStore();
    expect(await appliedMigrations(dataSource)).toEqual(migrations.map((m) => m.name));
    expect(await plantRows(dataSource)).toEqual([]);
  });

  it('keeps committed plants after the store is closed and opened again', async () => {
    const first = await openStore();
    await new CreatePlant(new SqlPlantRepository(first), new FixedClock('2025-06-01T00:00:00.000Z')).execute({
      plant: plant({ id: '9223372036854775807', name: 'survivor', tag: 'durable' }),
    });
    await first.destroy();

    const second = await openStore();
    expect(await plantRows(second)).toEqual([{ id: '9223372036854775807', name: 'survivor', tag: 'durable' }]);
  });

  it('migrates nothing on reopen: each migration recorded once, the data untouched', async () => {
    const first = await openStore();
    await new CreatePlant(new SqlPlantRepository(first), new FixedClock('2025-06-01T00:00:00.000Z')).execute({
      plant: plant({ id: '1', name: 'kept' }),
    });
    await first.destroy();

    const second = await openStore();
    expect(await second.showMigrations()).toBe(false);
    await expect(second.runMigrations()).resolves.toEqual([]);
    expect(await appliedMigrations(second)).toEqual(migrations.map((m) => m.name));
    expect(await plantRows(second)).toEqual([{ id: '1', name: 'kept', tag: null }]);
  });
});
