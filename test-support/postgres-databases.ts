import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { reportSkipped } from './skipped.js';

/**
 * What every PostgreSQL test suite of the workspace shares: when PostgreSQL runs, and a
 * fresh database per suite. Suites run in parallel workers and must not see each other's rows.
 */
export const PG_URL_VARIABLE = 'PLANTSTORE_TEST_PG_URL';
export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * PostgreSQL runs when a URL is given, and always in CI, where an unreachable server must
 * fail the run loudly instead of quietly dropping half of the suites.
 */
export function postgresAdminUrl(env: Environment = process.env): string | undefined {
  const url = env[PG_URL_VARIABLE];
  if (url !== undefined && url !== '') return url;
  return env['CI'] === 'true' ? DEFAULT_PG_ADMIN_URL : undefined;
}

/** What is left out without PostgreSQL, and how to add it; undefined when it runs. */
export function postgresSkipped(env: Environment = process.env): { what: string; howToEnable: string } | undefined {
  if (postgresAdminUrl(env) !== undefined) return undefined;
  return {
    what: 'PostgreSQL: the persistence contract, e2e and client suites on PostgreSQL, the scale-out and outage suites',
    howToEnable: `set ${PG_URL_VARIABLE}=${DEFAULT_PG_ADMIN_URL} (or CI=true)`,
  };
}

/** Adds PostgreSQL to the run's list of what was skipped, when it is left out. */
export function reportIfPostgresSkipped(): void {
  const skipped = postgresSkipped();
  if (skipped !== undefined) reportSkipped(skipped.what, skipped.howToEnable);
}

export interface FreshPostgresDatabase {
  /** A URL for the new database: same host, user and password as the admin URL. */
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

export async function createPostgresDatabase(adminUrl: string, prefix: string): Promise<FreshPostgresDatabase> {
  const name = prefix + randomBytes(6).toString('hex');
  await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
  return {
    url: databaseUrl(adminUrl, name),
    name,
    // FORCE ends the sessions of servers a failed test left running, so the drop cannot hang.
    drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
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
