import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPostgresDatabase,
  PG_URL_VARIABLE,
  postgresAdminUrl,
} from '../../../../test-support/postgres-databases.js';

export {
  connectPostgres,
  databaseUrl,
  DEFAULT_PG_ADMIN_URL,
  PG_URL_VARIABLE,
  postgresAdminUrl,
  postgresSkipped,
  reportIfPostgresSkipped,
} from '../../../../test-support/postgres-databases.js';
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
    return {
      engine: 'sqlite',
      url: `sqlite:${path}`,
      name: path,
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
};

/** PostgreSQL as an engine, or undefined when it is not enabled. */
export function postgresEngine(env: Environment = process.env): TestEngine | undefined {
  const adminUrl = postgresAdminUrl(env);
  if (adminUrl === undefined) return undefined;
  return {
    name: 'postgres',
    async createDatabase() {
      const database = await createPostgresDatabase(adminUrl, E2E_DATABASE_PREFIX);
      return { engine: 'postgres', ...database };
    },
  };
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
