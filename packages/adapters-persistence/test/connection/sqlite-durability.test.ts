import { existsSync } from 'node:fs';
import { sqliteEngine, type TestStore } from '../engines.js';

// docs/storage.md#durability: a 200 means the plant is durably committed. On SQLite that is WAL with
// synchronous=FULL (2), which fsyncs the WAL on every commit; NORMAL (1) would not.
describe('SQLite durability settings', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await sqliteEngine.createStore();
  });
  afterAll(() => store?.remove());

  it.each(['first open', 'reopen'])('are WAL and synchronous=FULL on %s', async () => {
    const dataSource = await store.open();
    try {
      expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('keeps the database in the file named by DATABASE_URL', async () => {
    const dataSource = await store.open();
    await dataSource.destroy();
    expect(existsSync(store.url.slice('sqlite:'.length))).toBe(true);
  });
});
