import { StorageUnavailableError } from '@plantstore/domain';
import { SqlRunner, type Statement } from '../../src/connection/sql-runner.js';
import { sqliteEngine, testEngines, type TestStore } from '../engines.js';
import { clearStore, plantRows } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';

describe.each(testEngines())('a transaction of several statements on $name', (engine) => {
  const open = useFreshStore(engine);
  const p = (position: number) => (engine.name === 'postgres' ? `$${position}` : '?');
  const insert = (id: number, name: string): Statement => ({
    sql: `INSERT INTO plant (id, name, created_at) VALUES (${p(1)}, ${p(2)}, '2025-06-01T00:00:00.000Z') RETURNING CAST(id AS TEXT) AS id`,
    parameters: [id, name],
  });
  const rename = (id: number, name: string): Statement => ({
    sql: `UPDATE plant SET name = ${p(1)} WHERE id = ${p(2)}`,
    parameters: [name, id],
  });

  beforeEach(() => clearStore(open().dataSource));

  it('commits every statement and answers the rows of each, in order', async () => {
    const results = await new SqlRunner(open().dataSource).transaction([
      insert(1, 'one'),
      insert(2, 'two'),
      rename(1, 'uno'),
    ]);
    expect(results).toEqual([[{ id: '1' }], [{ id: '2' }], []]);
    expect(await plantRows(open().dataSource)).toEqual([
      { id: '1', name: 'uno', tag: null },
      { id: '2', name: 'two', tag: null },
    ]);
  });

  it('commits none of them when one fails, and reports the failure as it is', async () => {
    const runner = new SqlRunner(open().dataSource);
    // The second row breaks the CHECK that a live plant has a name.
    const failing = runner.transaction([insert(1, 'one'), { ...insert(2, 'two'), parameters: [2, null] }]);
    await expect(failing).rejects.not.toBeInstanceOf(StorageUnavailableError);
    expect(await plantRows(open().dataSource)).toEqual([]);
    // The connection is usable afterwards: no transaction was left open on it.
    await runner.transaction([insert(3, 'three'), insert(4, 'four')]);
    expect((await plantRows(open().dataSource)).map((row) => row.id)).toEqual(['3', '4']);
  });
});

describe.each(testEngines())('a transaction on a closed $name store', (engine) => {
  let store: TestStore;
  beforeAll(async () => (store = await engine.createStore()));
  afterAll(() => store?.remove());

  it('fails as a storage error, "database closed", as a single statement does', async () => {
    const dataSource = await store.open();
    const runner = new SqlRunner(dataSource);
    await dataSource.destroy();
    const select: Statement = { sql: 'SELECT 1 AS one', parameters: [] };
    for (const statements of [[select], [select, select]]) {
      const failure = await runner.transaction(statements).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      expect((failure as StorageUnavailableError).reason).toBe('database closed');
    }
  });
});

describe('a transaction on SQLite whose lock another process holds', () => {
  let store: TestStore;
  beforeAll(async () => (store = await sqliteEngine.createStore()));
  afterAll(() => store?.remove());

  it('waits for the lock off the event loop, within the lock wait, and commits once it is released', async () => {
    const [holder, writer] = [await store.open(), await store.open()];
    const lock = holder.createQueryRunner();
    try {
      await lock.startTransaction();
      await lock.query("INSERT INTO plant (id, name, created_at) VALUES (9, 'elsewhere', '2025-06-01T00:00:00.000Z')");
      const runner = new SqlRunner(writer, { lockWaitMs: 5_000 });
      const committing = runner.transaction([
        {
          sql: "INSERT INTO plant (id, name, created_at) VALUES (1, 'one', '2025-06-01T00:00:00.000Z')",
          parameters: [],
        },
        {
          sql: "INSERT INTO plant (id, name, created_at) VALUES (2, 'two', '2025-06-01T00:00:00.000Z')",
          parameters: [],
        },
      ]);
      // The event loop is free while it waits: a timer fires on time.
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(Date.now() - started).toBeLessThan(1_000);
      await lock.rollbackTransaction();
      await committing;
      expect((await plantRows(writer)).map((row) => row.id)).toEqual(['1', '2']);
    } finally {
      await lock.release();
      await holder.destroy();
      await writer.destroy();
    }
  });

  it('gives up as a storage error (a 503) when the lock wait is over', async () => {
    const [holder, writer] = [await store.open(), await store.open()];
    const lock = holder.createQueryRunner();
    try {
      await lock.startTransaction();
      await lock.query("INSERT INTO plant (id, name, created_at) VALUES (8, 'elsewhere', '2025-06-01T00:00:00.000Z')");
      const failure = await new SqlRunner(writer, { lockWaitMs: 30 })
        .transaction([
          {
            sql: "INSERT INTO plant (id, name, created_at) VALUES (3, 'three', '2025-06-01T00:00:00.000Z')",
            parameters: [],
          },
          {
            sql: "INSERT INTO plant (id, name, created_at) VALUES (4, 'four', '2025-06-01T00:00:00.000Z')",
            parameters: [],
          },
        ])
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      expect((failure as StorageUnavailableError).reason).toBe('lock timeout');
    } finally {
      await lock.rollbackTransaction();
      await lock.release();
      await holder.destroy();
      await writer.destroy();
    }
  });
});
