import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource, MigrationExecutor } from 'typeorm';
import type { DatabaseConfig, Engine } from '../config/database-config.js';
import { openFeedEpochIfMoved } from '../migrations/feed-epoch.js';
import { migrations } from '../migrations/index.js';
import { ApiTokenEntity } from '../schema/api-token.schema.js';
import { PlantEntity } from '../schema/plant.schema.js';

/** SQLite's page cache per connection, in KiB. */
const SQLITE_PAGE_CACHE_KIB = 2_000;

/**
 * A DataSource for either engine, with schema changes only through migrations. The PostgreSQL
 * client (pg) is imported only for that engine: a server on SQLite never loads it.
 * SQLite: WAL with synchronous=FULL, so a commit has reached the disk (fsync of the WAL)
 * before the caller is answered; NORMAL would lose the last commits on power failure.
 */
async function createDataSource(config: DatabaseConfig): Promise<DataSource> {
  const common = {
    entities: [PlantEntity[config.engine], ApiTokenEntity[config.engine]],
    migrations,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.engine === 'sqlite') {
    if (config.createDirectory) mkdirSync(dirname(config.path), { recursive: true });
    return new DataSource({
      ...common,
      type: 'better-sqlite3',
      database: config.path,
      timeout: config.busyTimeoutMs,
      statementCacheSize: 1000,
      enableWAL: true,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('synchronous = FULL');
        // SQLite's own default page cache size. better-sqlite3 builds SQLite with a cache eight
        // times larger, which a growing table fills: the server's RSS grew by as much. A page outside
        // the cache is read again from the OS's file cache.
        db.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
      },
    });
  }
  const { clientWithQueryDeadline } = await import('./postgres-client.js');
  return new DataSource({
    ...common,
    type: 'postgres',
    url: config.url,
    poolSize: config.poolSize,
    connectTimeoutMS: config.connectTimeoutMs,
    extra: {
      statement_timeout: config.statementTimeoutMs,
      // In place of pg's query_timeout: a query unanswered 1 s past the statement timeout
      // means a dead connection, which is ended so the pool replaces it (postgres-client.ts).
      Client: clientWithQueryDeadline(config.statementTimeoutMs + 1_000),
      idleTimeoutMillis: 30_000,
    },
  });
}

/**
 * Opens the store and applies pending migrations (docs/storage.md#migrations: schema changes at
 * start-up); on PostgreSQL, then opens a new feed epoch if the database was restored into
 * another cluster (migrations/feed-epoch.ts).
 */
export async function openDataSource(config: DatabaseConfig): Promise<DataSource> {
  const dataSource = await createDataSource(config);
  await dataSource.initialize();
  try {
    if (config.engine === 'postgres') {
      await migrateUnderLock(dataSource);
    } else {
      // Start-up may wait for a lock on the event loop; nothing is being served yet. From now
      // on statements wait off it, for lockWaitOf(config) (lock-wait.ts).
      await dataSource.runMigrations();
      await dataSource.query('PRAGMA busy_timeout = 0');
    }
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

// A fixed key of our own for pg_advisory_lock ("plantsto" in ASCII): every instance of this
// service on the database agrees on it, and another application is unlikely to use it.
const MIGRATION_LOCK_KEY = '8100956956760700015';
// Waiting while another instance migrates is normal at a rolling start; waiting longer than
// this means that instance is stuck, and failing the start-up says so.
const MIGRATION_LOCK_WAIT_MS = 60_000;

/**
 * TypeORM's migration run checks, then creates, with no lock: instances started together on
 * an empty database each find no migrations table and race to create the same tables (the
 * losers fail start-up on a unique violation in pg_type). A session advisory lock makes them
 * take turns, so the later ones find every migration applied. The migrations run on the
 * connection that holds the lock, so this needs no second connection (PG_POOL_SIZE may be 1).
 */
async function migrateUnderLock(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    // Polled with try-lock: a blocking pg_advisory_lock would be one statement waiting past
    // the statement timeout and the query deadline.
    const giveUpAt = Date.now() + MIGRATION_LOCK_WAIT_MS;
    for (;;) {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [
        MIGRATION_LOCK_KEY,
      ])) as Array<{ locked: boolean }>;
      if (row?.locked === true) break;
      if (Date.now() > giveUpAt) {
        throw new Error(
          `another instance has been applying migrations for over ${MIGRATION_LOCK_WAIT_MS / 1000} s; is it stuck?`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = dataSource.options.migrationsTransactionMode ?? 'all';
      await executor.executePendingMigrations();
      await openFeedEpochIfMoved(runner);
    } finally {
      // If the connection broke, the server has already dropped the lock with the session.
      await runner.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

export function engineOf(dataSource: DataSource): Engine {
  return dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
