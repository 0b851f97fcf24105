import { DEFAULT_PG_ADMIN_URL, postgresSkipped, reportIfPostgresSkipped, testEngines } from '../engines.js';

describe('which engines the persistence contract runs on', () => {
  it('is SQLite alone on a developer machine without a PostgreSQL URL', () => {
    expect(testEngines({}).map((e) => e.name)).toEqual(['sqlite']);
    expect(postgresSkipped({})?.howToEnable).toMatch(/^set PLANTSTORE_TEST_PG_URL=postgres:\/\//);
  });

  it('adds PostgreSQL when PLANTSTORE_TEST_PG_URL is set', () => {
    const env = { PLANTSTORE_TEST_PG_URL: 'postgres://me@db.local:5433/scratch' };
    expect(testEngines(env).map((e) => e.name)).toEqual(['sqlite', 'postgres']);
    expect(postgresSkipped(env)).toBeUndefined();
  });

  it('always adds PostgreSQL in CI, at the default URL, so a missing server fails the run', () => {
    expect(testEngines({ CI: 'true' }).map((e) => e.name)).toEqual(['sqlite', 'postgres']);
    expect(postgresSkipped({ CI: 'true' })).toBeUndefined();
    expect(DEFAULT_PG_ADMIN_URL).toBe('postgres://postgres@127.0.0.1:5432/test');
  });

  // One entry in the run's list of what was skipped, however many suites use the engines.
  reportIfPostgresSkipped();
});
