import {
  connectPostgres,
  createPostgresDatabase as createDatabase,
  databaseUrl,
  type FreshPostgresDatabase,
} from './postgres.mjs';
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

export type { FreshPostgresDatabase };
export { connectPostgres, databaseUrl };

/**
 * A fresh database for one suite (test-support/postgres.mjs); a failure says that PostgreSQL
 * suites were asked for, so that an unreachable server is not mistaken for a broken test.
 */
export async function createPostgresDatabase(adminUrl: string, prefix: string): Promise<FreshPostgresDatabase> {
  const database = await asEnabledSuites(() => createDatabase(adminUrl, prefix));
  return { ...database, drop: () => asEnabledSuites(() => database.drop()) };
}

async function asEnabledSuites<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(`PostgreSQL suites are enabled (CI=true or ${PG_URL_VARIABLE}) but ${(error as Error).message}`, {
      cause: error,
    });
  }
}
