import type { Engine } from './database-config.js';

// The write path's tuning, in one place; why each value is what it is: docs/decisions.md#the-write-paths-tuning.

/** Requests per batch of creates or changes (and the statement texts kept, one per row count up to it). */
export const DEFAULT_MAX_BATCH = 256;
/** Rows of one INSERT: SQLite binds at most 32,766 parameters per statement (6 per row). */
export const MAX_ROWS_PER_STATEMENT = 5000;
/** Ids of one batched lookup (GET /plants/{id}, or a change's read, of one event-loop turn). */
export const MAX_IDS_PER_LOOKUP = 500;
/** PostgreSQL: write batches in flight at once, each on a pooled connection of its own. */
export const PG_WRITE_BATCHES_IN_FLIGHT = 4;
/** PostgreSQL: lookup batches in flight at once. */
export const PG_LOOKUP_BATCHES_IN_FLIGHT = 4;
/** A write batch starts beside another in flight only when at least this many requests wait. */
export const MIN_WRITE_BATCH_BESIDE_ANOTHER = 8;
/** A statement that finds SQLite's lock held by another process is retried after this pause, doubling… */
export const LOCK_RETRY_FIRST_PAUSE_MS = 2;
/** …up to this one. */
export const LOCK_RETRY_LONGEST_PAUSE_MS = 50;

/** How one batcher forms its batches (batcher.ts). */
export interface BatchTuning {
  /** Items per batch. */
  readonly maxBatch: number;
  /** Batches written at once (1: batches take turns). */
  readonly maxFlushesInFlight: number;
  /** A batch starts beside others in flight only when at least this many items wait (1: any). */
  readonly minBatchBesideAnother: number;
}

/** The batchers of the plant table: creates and changes (group commits) and lookups by id. */
export interface PlantBatchTuning {
  readonly creates: BatchTuning;
  readonly changes: BatchTuning;
  readonly lookups: BatchTuning;
}

/**
 * The batches for one store. SQLite has one connection: its batches take turns. PostgreSQL
 * overlaps them on its pool, leaving at least one connection to the other queries (token
 * lookups, the relay).
 */
export function plantBatchTuningFor(engine: Engine, poolSize: number, maxBatch = DEFAULT_MAX_BATCH): PlantBatchTuning {
  const inFlight = (onPostgres: number) =>
    engine === 'postgres' ? Math.max(1, Math.min(onPostgres, poolSize - 1)) : 1;
  const writes: BatchTuning = {
    maxBatch,
    maxFlushesInFlight: inFlight(PG_WRITE_BATCHES_IN_FLIGHT),
    minBatchBesideAnother: Math.min(MIN_WRITE_BATCH_BESIDE_ANOTHER, maxBatch),
  };
  return {
    creates: writes,
    changes: writes,
    lookups: {
      maxBatch: MAX_IDS_PER_LOOKUP,
      maxFlushesInFlight: inFlight(PG_LOOKUP_BATCHES_IN_FLIGHT),
      minBatchBesideAnother: 1,
    },
  };
}
