import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openDataSource,
  parseDatabaseUrl,
  type DatabaseConfig,
  type DatabaseTuning,
} from '@plantstore/adapters-persistence';
import type { DataSource } from 'typeorm';
import { createPostgresDatabase, postgresAdminUrl } from '../../../test-support/postgres-databases.js';

export {
  DEFAULT_PG_ADMIN_URL,
  postgresAdminUrl,
  postgresSkipped,
  reportIfPostgresSkipped,
} from '../../../test-support/postgres-databases.js';

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
      const database = await createPostgresDatabase(adminUrl, 'plantstore_test_');
      return storeAt(database.url, () => database.drop());
    },
  };
}

function storeAt(url: string, remove: () => Promise<void>): TestStore {
  const config = (tuning: DatabaseTuning = {}) => parseDatabaseUrl(url, 'unused-default.sqlite', tuning);
  return { url, config, open: (tuning) => openDataSource(config(tuning)), remove };
}
