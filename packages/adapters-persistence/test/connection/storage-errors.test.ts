import { SqlPlantRepository, asStorageError } from '@plantstore/adapters-persistence';
import { Plant, StorageUnavailableError } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { sqliteEngine, type TestStore } from '../engines.js';
import { validPlant } from '../support/valid-inputs.js';

const plant = (id: string): Plant => validPlant({ id, name: 'Aloe' });

const provenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T00:00:00.000Z') };

/** Whether the driver's error reaches the client as a 503 (an outage), not a 500. */
function isStorageUnavailable(error: unknown): boolean {
  return asStorageError(error) instanceof StorageUnavailableError;
}

/** A driver's error as TypeORM hands it on: wrapped, the driver's own under `driverError`. */
function fromDriver(code: string | undefined, message: string): Error {
  const driverError = Object.assign(new Error(message), code === undefined ? {} : { code });
  return Object.assign(new Error('INSERT INTO plant … failed'), { driverError });
}

function reasonOf(error: unknown): string | undefined {
  const translated = asStorageError(error);
  expect(translated).toBeInstanceOf(StorageUnavailableError);
  expect((translated as StorageUnavailableError).cause).toBe(error);
  return (translated as StorageUnavailableError).reason;
}

describe('the reason an outage is given, for the operator', () => {
  describe('SQLite (better-sqlite3 result codes)', () => {
    it.each([
      ['SQLITE_FULL', 'database or disk is full', 'disk full'],
      ['SQLITE_IOERR_WRITE', 'disk I/O error', 'disk failing'],
      ['SQLITE_BUSY', 'database is locked', 'lock timeout'],
      ['SQLITE_LOCKED_SHAREDCACHE', 'database table is locked', 'lock timeout'],
      ['SQLITE_CANTOPEN', 'unable to open database file', 'database file unusable'],
      ['SQLITE_READONLY', 'attempt to write a readonly database', 'database file unusable'],
      [undefined, 'The database connection is not open', 'database closed'],
    ])('%s (%s) is "%s"', (code, message, reason) => {
      expect(reasonOf(fromDriver(code, message))).toBe(reason);
    });
  });

  describe('PostgreSQL (SQLSTATEs and pg client errors)', () => {
    it.each([
      ['53100', 'could not extend file: No space left on device', 'disk full'],
      ['55P03', 'canceling statement due to lock timeout', 'lock timeout'],
      ['57014', 'canceling statement due to statement timeout', 'database timeout'],
      ['57P01', 'terminating connection due to administrator command', 'database unreachable'],
      ['08006', 'connection failure', 'database unreachable'],
      ['58030', 'could not write to file', 'disk failing'],
      ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432', 'database unreachable'],
      [undefined, 'Connection terminated unexpectedly', 'database unreachable'],
      [undefined, 'Client has encountered a connection error and is not queryable', 'database unreachable'],
      [undefined, 'Query read timeout', 'database timeout'],
    ])('%s (%s) is "%s"', (code, message, reason) => {
      expect(reasonOf(fromDriver(code, message))).toBe(reason);
    });
  });

  it('keeps a storage error as it is: translating twice changes nothing', () => {
    const once = asStorageError(fromDriver('SQLITE_FULL', 'database or disk is full'));
    expect(asStorageError(once)).toBe(once);
  });

  it('returns any other error unchanged, for the client to get a 500', () => {
    const bug = fromDriver('42601', 'syntax error at or near "SELEC"');
    expect(asStorageError(bug)).toBe(bug);
  });
});

describe('which driver errors are outages (a 503), and which are not', () => {
  it.each([
    ['SQLITE_BUSY', 'database is locked'],
    ['SQLITE_BUSY_SNAPSHOT', 'database is locked'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['57P01', 'terminating connection due to administrator command'],
  ])('is true for %s', (code, message) => {
    expect(isStorageUnavailable(Object.assign(new Error(message), { code }))).toBe(true);
  });

  it('is true when the code sits on the driver error TypeORM wraps', () => {
    const driverError = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(isStorageUnavailable(Object.assign(new Error('query failed'), { driverError }))).toBe(true);
  });

  it.each([
    ['SQLITE_CONSTRAINT_PRIMARYKEY', 'UNIQUE constraint failed: plant.id'],
    ['23505', 'duplicate key value violates unique constraint'],
    ['42601', 'syntax error at or near "SELEC"'],
  ])('is false for %s: a bug or a conflict, not an outage', (code, message) => {
    expect(isStorageUnavailable(Object.assign(new Error(message), { code }))).toBe(false);
  });

  it("is true for an error from another realm, which is not an instanceof this realm's Error", async () => {
    const { runInNewContext } = await import('node:vm');
    const foreign: unknown = runInNewContext(
      "Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })",
    );
    expect(foreign instanceof Error).toBe(false);
    expect(isStorageUnavailable(foreign)).toBe(true);
  });

  it('is false for things that are not errors', () => {
    expect(isStorageUnavailable('SQLITE_BUSY')).toBe(false);
    expect(isStorageUnavailable(undefined)).toBe(false);
  });
});

describe('a locked SQLite database', () => {
  let store: TestStore;
  let holder: DataSource;
  let impatient: DataSource;

  beforeAll(async () => {
    store = await sqliteEngine.createStore();
    holder = await store.open();
    // No busy wait: the second connection gives up at once instead of after five seconds.
    impatient = await store.open({ sqliteBusyTimeoutMs: 0 });
  });
  afterAll(async () => {
    await impatient?.destroy();
    await holder?.destroy();
    await store?.remove();
  });

  it('makes a create fail as StorageUnavailableError (a 503 to the client), and succeed once released', async () => {
    const lock = holder.createQueryRunner();
    await lock.startTransaction();
    await lock.query(
      "INSERT INTO plant (id, name, created_at) VALUES (1, 'holding the write lock', '2025-01-01T00:00:00.000Z')",
    );
    const repository = new SqlPlantRepository(impatient);
    try {
      const failure = await repository.insertIfAbsent(plant('2'), provenance).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      expect(isStorageUnavailable((failure as Error).cause)).toBe(true);
    } finally {
      await lock.rollbackTransaction();
      await lock.release();
    }
    await expect(repository.insertIfAbsent(plant('2'), provenance)).resolves.toEqual({ inserted: true });
  });
});
