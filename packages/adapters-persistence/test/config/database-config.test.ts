import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, parseDatabaseUrl, redactDatabaseUrl } from '@plantstore/adapters-persistence';

const DEFAULT_PATH = '/srv/plantstore/data/plantstore.sqlite';

describe('parseDatabaseUrl', () => {
  it.each([undefined, ''])('uses SQLite at the default path when DATABASE_URL is %j', (url) => {
    expect(parseDatabaseUrl(url, DEFAULT_PATH)).toEqual({
      engine: 'sqlite',
      path: DEFAULT_PATH,
      busyTimeoutMs: DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
      // The default database's directory is created on first use; a typed path's must exist.
      createDirectory: true,
    });
  });

  it.each([
    ['sqlite:data/plants.sqlite', 'data/plants.sqlite'],
    ['sqlite:/var/lib/plantstore.sqlite', '/var/lib/plantstore.sqlite'],
    ['sqlite:///var/lib/plantstore.sqlite', '/var/lib/plantstore.sqlite'],
    ['sqlite://data/plants.sqlite', 'data/plants.sqlite'],
    ['sqlite::memory:', ':memory:'],
  ])('reads %s as SQLite at %s', (url, path) => {
    expect(parseDatabaseUrl(url, DEFAULT_PATH)).toMatchObject({ engine: 'sqlite', path });
  });

  it.each(['postgres://app:secret@db.internal:5432/plants', 'postgresql://db.internal/plants', 'POSTGRES://db/plants'])(
    'selects PostgreSQL for %s and keeps the URL whole',
    (url) => {
      expect(parseDatabaseUrl(url, DEFAULT_PATH)).toMatchObject({ engine: 'postgres', url });
    },
  );

  it('applies tuning to the engine it selects', () => {
    expect(parseDatabaseUrl('sqlite:x.sqlite', DEFAULT_PATH, { sqliteBusyTimeoutMs: 250 })).toMatchObject({
      busyTimeoutMs: 250,
    });
    expect(
      parseDatabaseUrl('postgres://db/plants', DEFAULT_PATH, {
        pgPoolSize: 3,
        pgStatementTimeoutMs: 700,
        pgConnectTimeoutMs: 900,
      }),
    ).toMatchObject({ poolSize: 3, statementTimeoutMs: 700, connectTimeoutMs: 900 });
  });

  it.each([
    'mysql://db/plants',
    'http://db/plants',
    'postgres:/db/plants',
    'sqlite',
    './data/plants.sqlite',
    'sqlite:',
  ])('refuses %j with a message naming DATABASE_URL', (url) => {
    expect(() => parseDatabaseUrl(url, DEFAULT_PATH)).toThrow(/DATABASE_URL/);
  });
});

describe('redactDatabaseUrl', () => {
  it('hides a PostgreSQL password and keeps the rest readable', () => {
    const shown = redactDatabaseUrl(parseDatabaseUrl('postgres://app:s3cr3t@db.internal:5432/plants', DEFAULT_PATH));
    expect(shown).not.toContain('s3cr3t');
    expect(shown).toContain('db.internal:5432/plants');
  });

  it('shows a SQLite path as a sqlite: URL', () => {
    expect(redactDatabaseUrl(parseDatabaseUrl('sqlite:data/p.sqlite', DEFAULT_PATH))).toBe('sqlite:data/p.sqlite');
  });
});
