import {
  Plant,
  PlantId,
  type FeedPosition,
  type PlantChangeFeed,
  type PlantFeedEntry,
  type PositionedFeedEntry,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import type { Engine } from '../config/database-config.js';
import { engineOf } from '../connection/create-data-source.js';
import { SqlRunner, type SqlRunnerOptions, type Statement } from '../connection/sql-runner.js';

/** How far the feed is behind the store's commits (a metric; docs/operations.md#change-feed). */
export interface FeedLag {
  /** Changes committed that the feed cannot serve yet, counted up to MAX_LAG_COUNTED. */
  readonly changes: number;
  /** When the first of them (by position) was made; undefined when there is none. */
  readonly oldestChangedAt: Date | undefined;
}

/** Past this many, the lag is reported as this many: the count stays cheap whatever holds the feed back. */
export const MAX_LAG_COUNTED = 10_000;

const INT64_MAX = 9223372036854775807n;

interface FeedRow {
  readonly id: string;
  readonly name: string | null;
  readonly tag: string | null;
  readonly version: number | string;
  readonly deleted_at: string | Date | null;
  /** Text on PostgreSQL (int8); a number on SQLite, whose commit numbers count write statements, far below 2^53. */
  readonly epoch: string | number;
  readonly commit_: string | number;
}

/** One engine's statements of the feed. */
interface FeedSql {
  readAfter(after: FeedPosition, limit: number): Statement;
  /** One row `{ epoch, commit_, id }` (text), or none while no plant was ever stored. */
  readonly newest: Statement;
  /** One row `{ changes, oldest }`. */
  readonly lag: Statement | undefined;
}

/** The statement's snapshot's xmin: every transaction below it has ended (as bigint, as feed_xid). */
const HORIZON = '(SELECT CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS bigint))';

// Values, not a join: both ends of the range bound the index scan.
const EPOCH = '(SELECT feed.epoch FROM plant_feed AS feed WHERE feed.id = 1)';

const FEED_COLUMNS = `CAST(plant.id AS TEXT) AS id, plant.name AS name, plant.tag AS tag, plant.version AS version,
  plant.deleted_at AS deleted_at`;

const FEED_SQL: Record<Engine, FeedSql> = {
  // Writers take turns, so every committed row is final: the feed serves up to the last commit.
  sqlite: {
    readAfter: (after, limit) => ({
      // One epoch, 0: a position of a later one is after every row. Numbers, not texts: cheaper per row.
      sql: `SELECT ${FEED_COLUMNS}, 0 AS epoch, plant.feed_commit AS commit_ FROM plant
        WHERE ? = 0 AND (plant.feed_commit, plant.id) > (?, ?) ORDER BY plant.feed_commit, plant.id LIMIT ?`,
      parameters: [after.epoch, after.commit, after.id, limit],
    }),
    // Ordered by the columns, not the text result `id`: as text, 99999 comes after 100000.
    newest: {
      sql: `SELECT '0' AS epoch, CAST(feed_commit AS TEXT) AS commit_, CAST(id AS TEXT) AS id FROM plant
        ORDER BY plant.feed_commit DESC, plant.id DESC LIMIT 1`,
      parameters: [],
    },
    lag: undefined,
  },
  // Only rows the statement's snapshot proves final: written by a transaction below its xmin,
  // which has ended, while every transaction that commits later has an id at or above it
  // (docs/decisions.md, "How the feed never skips a late commit"). Rows of an older epoch are all final.
  postgres: {
    readAfter: (after, limit) => ({
      sql: `SELECT ${FEED_COLUMNS}, CAST(plant.feed_epoch AS TEXT) AS epoch, CAST(plant.feed_xid AS TEXT) AS commit_
        FROM plant
        WHERE (plant.feed_epoch, plant.feed_xid, plant.id) > ($1::bigint, $2::bigint, $3::bigint)
          AND (plant.feed_epoch, plant.feed_xid) < (${EPOCH}, ${HORIZON})
        ORDER BY plant.feed_epoch, plant.feed_xid, plant.id LIMIT $4`,
      parameters: [after.epoch.toString(), after.commit.toString(), after.id.toString(), limit],
    }),
    // A bound, not a row: every position served is below the horizon, which never moves back,
    // so a cursor stays valid when its plant has moved on to a position not yet servable.
    newest: {
      sql: `SELECT CAST(feed.epoch AS TEXT) AS epoch,
          CAST(${HORIZON} AS TEXT) AS commit_, NULL AS id
        FROM plant_feed AS feed WHERE feed.id = 1 AND EXISTS (SELECT 1 FROM plant)`,
      parameters: [],
    },
    lag: {
      sql: `SELECT COUNT(*) AS changes, MIN(changed) AS oldest FROM (
          SELECT COALESCE(plant.deleted_at, plant.changed_at, plant.created_at) AS changed
          FROM plant
          WHERE (plant.feed_epoch, plant.feed_xid) >= (${EPOCH}, ${HORIZON})
          ORDER BY plant.feed_epoch, plant.feed_xid, plant.id LIMIT ${MAX_LAG_COUNTED}
        ) AS waiting`,
      parameters: [],
    },
  },
};

/**
 * The change feed in SQL (PlantChangeFeed): every plant row at the position of its last
 * committed change, read in position order from the feed's index. Reads only: the positions
 * are written by the plant statements themselves (plant-sql.ts), and reading takes no lock a
 * writer waits for.
 */
export class SqlPlantFeed implements PlantChangeFeed {
  private readonly statements: SqlRunner;
  private readonly sql: FeedSql;

  constructor(dataSource: DataSource, options: SqlRunnerOptions = {}) {
    this.statements = new SqlRunner(dataSource, options);
    this.sql = FEED_SQL[engineOf(dataSource)];
  }

  async readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]> {
    const rows = await this.statements.run<FeedRow>(this.sql.readAfter(after, limit));
    // The rows of a page mostly share epoch and commit (one commit stores a whole batch): each
    // distinct value is read once, and the id's bigint is the entry's own.
    const epochOf = lastParsed();
    const commitOf = lastParsed();
    return rows.map((row) => {
      const entry = entryOf(row);
      const id = entry.deleted ? entry.id : entry.plant.id;
      return { position: { epoch: epochOf(row.epoch), commit: commitOf(row.commit_), id: id.value }, entry };
    });
  }

  async newestPosition(): Promise<FeedPosition | undefined> {
    const [row] = await this.statements.run<{ epoch: string; commit_: string; id: string | null }>(this.sql.newest);
    if (row === undefined) return undefined;
    // PostgreSQL's bound: just below the horizon, at the highest id.
    if (row.id === null) return { epoch: BigInt(row.epoch), commit: BigInt(row.commit_) - 1n, id: INT64_MAX };
    return { epoch: BigInt(row.epoch), commit: BigInt(row.commit_), id: BigInt(row.id) };
  }

  /** Cheap enough to read every few seconds: counts along the feed's index, at most MAX_LAG_COUNTED rows. */
  async lag(): Promise<FeedLag> {
    if (this.sql.lag === undefined) return { changes: 0, oldestChangedAt: undefined };
    const [row] = await this.statements.run<{ changes: string | number; oldest: string | Date | null }>(this.sql.lag);
    return {
      changes: Number(row?.changes ?? 0),
      oldestChangedAt: row?.oldest === null || row?.oldest === undefined ? undefined : new Date(row.oldest),
    };
  }
}

/** BigInt(stored), reusing the last answer while the stored value repeats. */
function lastParsed(): (stored: string | number) => bigint {
  let lastStored: string | number | undefined;
  let lastValue = 0n;
  return (stored) => {
    if (stored !== lastStored) [lastStored, lastValue] = [stored, BigInt(stored)];
    return lastValue;
  };
}

function entryOf(row: FeedRow): PlantFeedEntry {
  const version = Number(row.version);
  const id = PlantId.fromStored(row.id);
  if (row.deleted_at !== null) return { deleted: true, id, version };
  return { deleted: false, plant: Plant.fromStored(id, row.name!, row.tag), version };
}
