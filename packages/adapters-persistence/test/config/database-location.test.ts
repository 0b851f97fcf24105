import { join, resolve } from 'node:path';
import {
  databaseConfigFor,
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_POOL_SIZE,
} from '@plantstore/adapters-persistence';

// A checkout somewhere else than the current directory: the two must not be confused.
const ROOT = '/srv/checkout';

describe('where each app finds its database (databaseConfigFor)', () => {
  it.each([undefined, ''])(
    'keeps the default database in the checkout whatever the current directory, DATABASE_URL=%p',
    (url) => {
      expect(databaseConfigFor(url, ROOT)).toMatchObject({
        engine: 'sqlite',
        path: '/srv/checkout/data/plantstore.sqlite',
      });
    },
  );

  it('takes a relative sqlite: path from the current directory, not from the checkout', () => {
    expect(databaseConfigFor('sqlite:data/mine.sqlite', ROOT)).toMatchObject({
      path: join(process.cwd(), 'data/mine.sqlite'),
    });
    expect(databaseConfigFor('sqlite://../elsewhere.sqlite', ROOT)).toMatchObject({
      path: resolve('..', 'elsewhere.sqlite'),
    });
  });

  it.each([
    ['sqlite:/var/lib/plantstore.sqlite', '/var/lib/plantstore.sqlite'],
    ['sqlite::memory:', ':memory:'],
  ])('keeps %s as %s', (url, path) => {
    expect(databaseConfigFor(url, ROOT)).toMatchObject({ engine: 'sqlite', path });
  });

  it('leaves a PostgreSQL URL as given, with the tuning', () => {
    expect(databaseConfigFor('postgres://u@h/db', ROOT, { pgStatementTimeoutMs: 300 })).toEqual({
      engine: 'postgres',
      url: 'postgres://u@h/db',
      poolSize: DEFAULT_PG_POOL_SIZE,
      statementTimeoutMs: 300,
      connectTimeoutMs: DEFAULT_PG_CONNECT_TIMEOUT_MS,
    });
  });
});
