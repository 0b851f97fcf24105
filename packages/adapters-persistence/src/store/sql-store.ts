import {
  StorageUnavailableError,
  systemClock,
  type Clock,
  type PlantChangeFeed,
  type TokenRepository,
  type TokenSecrets,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { CachingTokenRepository } from '../tokens/caching-token-repository.js';
import { openDataSource } from '../connection/create-data-source.js';
import { lockWaitOf } from '../connection/lock-wait.js';
import { redactDatabaseUrl, type DatabaseConfig } from '../config/database-config.js';
import { nodeTokenSecrets } from '../tokens/node-token-secrets.js';
import { SqlPlantEventOutbox } from '../events/sql-plant-event-outbox.js';
import { SqlPlantRepository } from '../plants/sql-plant-repository.js';
import { SqlPlantFeed, type FeedLag } from '../plants/sql-plant-feed.js';
import { NameIndexPasses, SqliteNameIndex, type NameIndexLog } from '../plants/sqlite-name-index.js';
import { SqlRunner } from '../connection/sql-runner.js';
import { TypeOrmTokenRepository } from '../tokens/typeorm-token-repository.js';

export interface SqlStoreOptions {
  /**
   * Remember tokens found by hash for this long (at most the revocation bound), so a busy
   * token is not read on every request. 0 or absent: every lookup reads the database.
   */
  readonly tokenCacheTtlMs?: number;
  readonly clock?: Clock;
  /** Where background work says it failed (SQLite's name index passes); silent when absent. */
  readonly log?: NameIndexLog;
}

/**
 * Everything this adapter keeps in one database (SQLite or PostgreSQL, docs/storage.md): the
 * plants, the API tokens and how their secrets are kept, the plant events' outbox, the change feed. `open`
 * applies pending migrations; `close` is the only way the connection ends. The CLI uses it as
 * it is; a Nest app imports SqlStoreModule (`@plantstore/adapters-persistence/nest`).
 */
export class SqlStore {
  readonly plants: SqlPlantRepository;
  readonly tokens: TokenRepository;
  /** Tokens are kept as SHA-256 digests of what the client presents. */
  readonly tokenSecrets: TokenSecrets = nodeTokenSecrets;
  readonly events: SqlPlantEventOutbox;
  /** The plants' change feed (docs/storage.md#change-feed). */
  readonly feed: PlantChangeFeed;
  private readonly feedReader: SqlPlantFeed;
  /** SQLite only: keeps the name index current (plants/sqlite-name-index.ts). */
  private readonly nameIndexPasses: NameIndexPasses | undefined;

  private constructor(
    /** For tools and tests that read the tables directly; the ports above are the API. */
    readonly dataSource: DataSource,
    config: DatabaseConfig,
    options: SqlStoreOptions,
  ) {
    const statements = { lockWaitMs: lockWaitOf(config) };
    this.plants = new SqlPlantRepository(dataSource, statements);
    const tokens = new TypeOrmTokenRepository(dataSource, statements);
    const ttl = options.tokenCacheTtlMs ?? 0;
    this.tokens = ttl > 0 ? new CachingTokenRepository(tokens, options.clock ?? systemClock, ttl) : tokens;
    this.events = new SqlPlantEventOutbox(dataSource, statements);
    this.feedReader = new SqlPlantFeed(dataSource, statements);
    this.feed = this.feedReader;
    const runner = new SqlRunner(dataSource, statements);
    this.nameIndexPasses =
      runner.engine === 'sqlite' ? new NameIndexPasses(new SqliteNameIndex(runner), options.log) : undefined;
  }

  /**
   * Opens the database and applies pending migrations.
   * @throws {StorageUnavailableError} it cannot be opened; the message names the database with
   *   its password masked and says why, without the driver's text quoting a secret.
   */
  static async open(config: DatabaseConfig, options: SqlStoreOptions = {}): Promise<SqlStore> {
    let dataSource;
    try {
      dataSource = await openDataSource(config);
    } catch (error) {
      throw new StorageUnavailableError(`${redactDatabaseUrl(config)}: ${withoutSecrets(describe(error), config)}`, {
        cause: error,
      });
    }
    return new SqlStore(dataSource, config, options);
  }

  /** Resolves when the database answers a query; rejects when it does not. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /**
   * How far the feed is behind the commits: on PostgreSQL, changes committed that no follower
   * can read yet because a transaction open somewhere in the cluster holds the horizon back; on
   * SQLite always none. One indexed count, for a metric read every few seconds.
   */
  feedLag(): Promise<FeedLag> {
    return this.feedReader.lag();
  }

  async close(): Promise<void> {
    await this.nameIndexPasses?.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // AggregateError (pg connecting to several addresses) has an empty message of its own.
  if (error.message === '' && error instanceof AggregateError) return error.errors.map(describe).join('; ');
  return error.message;
}

/** Driver messages may quote the connection string; the password must never reach a terminal or a log. */
function withoutSecrets(message: string, config: DatabaseConfig): string {
  if (config.engine !== 'postgres') return message;
  let clean = message.split(config.url).join(redactDatabaseUrl(config));
  try {
    const raw = new URL(config.url).password;
    for (const password of [raw, decodeURIComponent(raw)])
      if (password !== '') clean = clean.split(password).join('***');
  } catch {
    // An unparseable URL cannot be scrubbed more precisely than by the replacement above.
  }
  return clean;
}
