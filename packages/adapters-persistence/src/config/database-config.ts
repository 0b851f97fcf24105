import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where the data lives, decided once from DATABASE_URL (docs/operations.md#configuration). */
export type DatabaseConfig =
  | {
      readonly engine: 'sqlite';
      readonly path: string;
      readonly busyTimeoutMs: number;
      /** Only the default database's directory is created when missing; a path someone typed must exist. */
      readonly createDirectory?: true;
    }
  | {
      readonly engine: 'postgres';
      readonly url: string;
      readonly poolSize: number;
      readonly statementTimeoutMs: number;
      readonly connectTimeoutMs: number;
    };

export type Engine = DatabaseConfig['engine'];

/** The database of a checkout when DATABASE_URL is unset, under its repository root. */
export const DEFAULT_SQLITE_FILE = 'data/plantstore.sqlite';
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5_000;
export const DEFAULT_PG_POOL_SIZE = 10;
export const DEFAULT_PG_STATEMENT_TIMEOUT_MS = 5_000;
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 2_000;

export interface DatabaseTuning {
  readonly sqliteBusyTimeoutMs?: number;
  readonly pgPoolSize?: number;
  readonly pgStatementTimeoutMs?: number;
  readonly pgConnectTimeoutMs?: number;
}

/**
 * `postgres://…`/`postgresql://…` → PostgreSQL; `sqlite:<path>` → SQLite at that path;
 * undefined → SQLite at `defaultSqlitePath`. Anything else is refused with a reason.
 */
export function parseDatabaseUrl(
  url: string | undefined,
  defaultSqlitePath: string,
  tuning: DatabaseTuning = {},
): DatabaseConfig {
  const busyTimeoutMs = tuning.sqliteBusyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
  if (url === undefined || url === '')
    return { engine: 'sqlite', path: defaultSqlitePath, busyTimeoutMs, createDirectory: true };
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return {
      engine: 'postgres',
      url,
      poolSize: tuning.pgPoolSize ?? DEFAULT_PG_POOL_SIZE,
      statementTimeoutMs: tuning.pgStatementTimeoutMs ?? DEFAULT_PG_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: tuning.pgConnectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS,
    };
  }
  if (url.startsWith('sqlite:')) {
    // sqlite:data/x, sqlite:/abs/x, and the URL-style sqlite://data/x and sqlite:///abs/x.
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '')
      throw new Error(`DATABASE_URL sqlite: needs a file path, for example sqlite:${DEFAULT_SQLITE_FILE}`);
    return { engine: 'sqlite', path, busyTimeoutMs };
  }
  throw new Error('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
}

/**
 * DATABASE_URL as both apps read it: unset, the default database belongs to the checkout at
 * `repositoryRoot`, wherever the operator stands; `sqlite:relative/path` is taken from the
 * current directory, whatever the driver would do (docs/operations.md#configuration).
 */
export function databaseConfigFor(
  url: string | undefined,
  repositoryRoot: string,
  tuning: DatabaseTuning = {},
): DatabaseConfig {
  const defaultPath = resolve(repositoryRoot, DEFAULT_SQLITE_FILE);
  const config = parseDatabaseUrl(url, defaultPath, tuning);
  if (config.engine !== 'sqlite' || config.path === ':memory:') return config;
  const path = resolve(config.path);
  // The default file named explicitly is still the default: its data/ directory may be made.
  return path === defaultPath ? { ...config, path, createDirectory: true } : { ...config, path };
}

/**
 * Why the SQLite file of `config` cannot be created, or undefined when it can (or the engine is
 * PostgreSQL): a typo in DATABASE_URL must not silently create a directory tree somewhere.
 */
export function sqliteDirectoryProblem(config: DatabaseConfig): string | undefined {
  if (config.engine !== 'sqlite' || config.createDirectory || config.path === ':memory:') return undefined;
  const directory = dirname(config.path);
  const stat = statSync(directory, { throwIfNoEntry: false });
  if (stat === undefined)
    return `DATABASE_URL names a SQLite file in ${directory}, which does not exist; create the directory first`;
  if (!stat.isDirectory()) return `DATABASE_URL names a SQLite file in ${directory}, which is not a directory`;
  return undefined;
}

/** A URL fit for logs: the password is replaced. */
export function redactDatabaseUrl(config: DatabaseConfig): string {
  if (config.engine === 'sqlite') return `sqlite:${config.path}`;
  try {
    const url = new URL(config.url);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}
