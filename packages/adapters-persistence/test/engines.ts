import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataSource, parseDatabaseUrl, type DatabaseConfig, type DatabaseTuning } from '@plantstore/adapters-persistence';
import type { DataSource } from 'typeorm';

export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const PG_URL_VARIABLE = 'PLANTSTORE_TEST_PG_URL';

/** An empty database of one engine, made for one suite and removed after it. */
export interface TestStore {
  /** The DATABASE_URL an app would be given for this store. */
  readonly url: string;
  config(tuning?: DatabaseTuning): DatabaseConfig;
  /** Opens the store as the apps do: migrations applied. */
  open(tuning?: DatabaseTuning): Promise<DataSource>;
  remove(): Promise<void>;
}

export interface TestEngine {
  readonly name: 'sqlite' | 'postgres';
  createStore(): Promise<TestStore>;
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * PostgreSQL runs when a URL is given, and always in CI, where an unreachable server must
 * fail the run rather than quietly drop half of the contract (Effect gates its
 * integration tests the same way).
 */
export function postgresAdminUrl(env: Environment = process.env): string | undefined {
  const url = env[PG_URL_VARIABLE];
  if (url !== undefined && url !== '') return url;
  return env['CI'] === 'true' ? DEFAULT_PG_ADMIN_URL : undefined;
}

/** The line to print when PostgreSQL is left out, or undefined when it runs. */
export function postgresSkipNotice(env: Environment = process.env): string | undefined {
  if (postgresAdminUrl(env) !== undefined) return undefined;
  return `PostgreSQL persistence tests skipped: set ${PG_URL_VARIABLE}=${DEFAULT_PG_ADMIN_URL} to run them`;
}

/** The engines every contract suite runs on: SQLite always, PostgreSQL when enabled. */
export function testEngines(env: Environment = process.env): TestEngine[] {
  const adminUrl = postgresAdminUrl(env);
  return adminUrl === undefined ? [sqliteEngine] : [sqliteEngine, postgresEngine(adminUrl)];
}

export const sqliteEngine: TestEngine = {
  name: 'sqlite',
  async createStore() {
    const directory = mkdtempSync(join(tmpdir(), 'plantstore-test-'));
    const url = `sqlite:${join(directory, 'plantstore.sqlite')}`;
    return storeAt(url, async () => rmSync(directory, { recursive: true, force: true }));
  },
};

export function postgresEngine(adminUrl: string): TestEngine {
  return {
    name: 'postgres',
    async createStore() {
      // A database per suite: suites run in parallel workers and must not see each other's rows.
      const database = `plantstore_test_${randomBytes(6).toString('hex')}`;
      await asAdmin(adminUrl, `CREATE DATABASE ${database}`);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      return storeAt(url.toString(), () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    },
  };
}

function storeAt(url: string, remove: () => Promise<void>): TestStore {
  const config = (tuning: DatabaseTuning = {}) => parseDatabaseUrl(url, 'unused-default.sqlite', tuning);
  return { url, config, open: (tuning) => openDataSource(config(tuning)), remove };
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
interface PgModule {
  Client: new (options: { connectionString: string; connectionTimeoutMillis: number }) => PgClient;
}

// `pg` ships no types and @types/pg is not a dependency; a computed specifier keeps the
// compiler from looking for them, and PgModule types the three calls used here.
const PG_MODULE = 'pg';

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const { default: pg } = (await import(PG_MODULE)) as { default: PgModule };
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query(sql);
  } catch (error) {
    throw new Error(
      `PostgreSQL tests are enabled (CI=true or ${PG_URL_VARIABLE}) but "${sql}" failed on ${withoutPassword(adminUrl)}: ${String(error)}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The admin URL fit for a CI log. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable URL)';
  }
}
