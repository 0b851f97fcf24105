import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from './database-config.js';
import { migrations } from './migrations/index.js';
import { ApiTokenSchema } from './schema/api-token.schema.js';
import { PlantSchema } from './schema/plant.schema.js';

/**
 * A DataSource for either engine, with schema changes only through migrations.
 * SQLite: WAL with synchronous=FULL, so a commit has reached the disk (fsync of the WAL)
 * before the caller is answered; NORMAL would lose the last commits on power failure.
 */
export function createDataSource(config: DatabaseConfig): DataSource {
  const common = {
    entities: [PlantSchema, ApiTokenSchema],
    migrations,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.engine === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    return new DataSource({
      ...common,
      type: 'better-sqlite3',
      database: config.path,
      timeout: config.busyTimeoutMs,
      statementCacheSize: 1000,
      enableWAL: true,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('synchronous = FULL');
      },
    });
  }
  return new DataSource({
    ...common,
    type: 'postgres',
    url: config.url,
    poolSize: config.poolSize,
    connectTimeoutMS: config.connectTimeoutMs,
    extra: {
      statement_timeout: config.statementTimeoutMs,
      query_timeout: config.statementTimeoutMs + 1_000,
      idleTimeoutMillis: 30_000,
    },
  });
}

/** Opens the store and applies pending migrations (DESIGN §4: schema changes at start-up). */
export async function openDataSource(config: DatabaseConfig): Promise<DataSource> {
  const dataSource = createDataSource(config);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

export function engineOf(dataSource: DataSource): 'sqlite' | 'postgres' {
  return dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
