import {
  DEFAULT_PG_ADMIN_URL,
  postgresEngine,
  postgresSkipped,
  reportIfPostgresSkipped,
  testEngines,
} from '../support/engines.js';

describe('which engines the e2e suites run on', () => {
  it('is SQLite alone on a developer machine without a PostgreSQL URL, with an entry saying how to add it', () => {
    expect(testEngines({}).map((e) => e.name)).toEqual(['sqlite']);
    expect(postgresSkipped({})?.howToEnable).toBe(`set PLANTSTORE_TEST_PG_URL=${DEFAULT_PG_ADMIN_URL} (or CI=true)`);
  });

  it('adds PostgreSQL when PLANTSTORE_TEST_PG_URL is set', () => {
    const env = { PLANTSTORE_TEST_PG_URL: 'postgres://me@db.local:5433/scratch' };
    expect(testEngines(env).map((e) => e.name)).toEqual(['sqlite', 'postgres']);
    expect(postgresSkipped(env)).toBeUndefined();
  });

  it('always adds PostgreSQL in CI, at postgres://postgres@127.0.0.1:5432/test', () => {
    expect(testEngines({ CI: 'true' }).map((e) => e.name)).toEqual(['sqlite', 'postgres']);
    expect(DEFAULT_PG_ADMIN_URL).toBe('postgres://postgres@127.0.0.1:5432/test');
  });

  it('fails loudly, naming the switch and the server, when enabled PostgreSQL cannot be reached', async () => {
    // Port 1 on the loopback is closed: the connection is refused at once, as with a stopped server.
    const engine = postgresEngine({ PLANTSTORE_TEST_PG_URL: 'postgres://postgres:secret@127.0.0.1:1/test' })!;
    const failure = await engine.createDatabase().then(
      () => new Error('a database was created on a closed port'),
      (error: unknown) => error as Error,
    );
    expect(failure.message).toMatch(
      /^PostgreSQL suites are enabled \(CI=true or PLANTSTORE_TEST_PG_URL\) but "CREATE DATABASE plantstore_e2e_[0-9a-f]{12}" failed on postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test: .*ECONNREFUSED/,
    );
  });

  // One entry in the run's list of what was skipped, however many suites use the engines.
  reportIfPostgresSkipped();
});
