import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const PG_URL_VARIABLE = 'PLANTSTORE_TEST_PG_URL';
/** Every database the e2e suites create starts with this; test-app refuses any other. */
export const E2E_DATABASE_PREFIX = 'plantstore_e2e_';

export type EngineName = 'sqlite' | 'postgres';

/** A fresh, empty database made for one suite; `drop` removes it and everything in it. */
export interface TestDatabase {
  readonly engine: EngineName;
  /** What DATABASE_URL is set to for the app, the built server or the CLI. */
  readonly url: string;
  /** The SQLite file, or the PostgreSQL database name. */
  readonly name: string;
  drop(): Promise<void>;
}

export interface TestEngine {
  readonly name: EngineName;
  createDatabase(): Promise<TestDatabase>;
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * PostgreSQL runs when a URL is given, and always in CI, where an unreachable server must
 * fail the run loudly instead of quietly dropping half of the suite.
 */
export function postgresAdminUrl(env: Environment = process.env): string | undefined {
  const url = env[PG_URL_VARIABLE];
  if (url !== undefined && url !== '') return url;
  return env['CI'] === 'true' ? DEFAULT_PG_ADMIN_URL : undefined;
}

/** The one line to print when PostgreSQL is left out, or undefined when it runs. */
export function postgresSkipNotice(env: Environment = process.env): string | undefined {
  if (postgresAdminUrl(env) !== undefined) return undefined;
  return `PostgreSQL e2e and scale-out suites skipped: set ${PG_URL_VARIABLE}=${DEFAULT_PG_ADMIN_URL} (or CI=true) to run them`;
}

/** The engines the e2e suites run on: SQLite always, PostgreSQL when enabled. */
export function testEngines(env: Environment = process.env): TestEngine[] {
  const postgres = postgresEngine(env);
  return postgres === undefined ? [sqliteEngine] : [sqliteEngine, postgres];
}

export const sqliteEngine: TestEngine = {
  name: 'sqlite',
  async createDatabase() {
    const directory = mkdtempSync(join(tmpdir(), 'plantstore-e2e-'));
    const path = join(directory, 'plantstore.sqlite');
    return { engine: 'sqlite', url: `sqlite:${path}`, name: path, drop: async () => rmSync(directory, { recursive: true, force: true }) };
  },
};

/** PostgreSQL as an engine, or undefined when it is not enabled. */
export function postgresEngine(env: Environment = process.env): TestEngine | undefined {
  const adminUrl = postgresAdminUrl(env);
  if (adminUrl === undefined) return undefined;
  return {
    name: 'postgres',
    async createDatabase() {
      // A database per suite: suites run in parallel workers and must not see each other's rows.
      const name = E2E_DATABASE_PREFIX + randomBytes(6).toString('hex');
      await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
      return {
        engine: 'postgres',
        url: databaseUrl(adminUrl, name),
        name,
        // FORCE ends the sessions of servers a failed test left running, so the drop cannot hang.
        drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      };
    },
  };
}

/** The admin URL with another database name (same host, user and password). */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A connection of its own to `url`, outside any app's pool: another client of the database. */
export async function connectPostgres(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // An idle client whose server goes away emits 'error'; unhandled, it would crash the worker.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  let client: pg.Client | undefined;
  try {
    client = await connectPostgres(adminUrl);
    await client.query(sql);
  } catch (error) {
    throw new Error(
      `PostgreSQL suites are enabled (CI=true or ${PG_URL_VARIABLE}) but "${sql}" failed on ${withoutPassword(adminUrl)}: ${String(error)}`,
      { cause: error },
    );
  } finally {
    await client?.end().catch(() => undefined);
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

/**
 * A describe block for a PostgreSQL-only suite. Without PostgreSQL, jest would fail a file
 * with no tests at all, so the block holds one todo that says how to run it instead.
 */
export function describeOnPostgres(title: string, body: (engine: TestEngine) => void): void {
  const engine = postgresEngine();
  if (engine !== undefined) describe(title, () => body(engine));
  else describe(title, () => it.todo(`needs PostgreSQL: set ${PG_URL_VARIABLE} or CI=true`));
}
