import type {
  InsertOutcome,
  Plant,
  PlantBatchRepository,
  PlantChangeRepository,
  PlantId,
  PlantPageRequest,
  PlantProvenance,
  PlantReader,
  PlantRepository,
  PlantRetirement,
  PlantRevision,
  PlantState,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { engineOf } from '../connection/create-data-source.js';
import { SqlRunner } from '../connection/sql-runner.js';
import { IsoTimeText } from './plant-rows.js';
import { plantSqlFor } from './plant-sql.js';
import { SqlPlantChanges } from './sql-plant-changes.js';
import { SqlPlantInserts } from './sql-plant-inserts.js';
import { SqlPlantReads } from './sql-plant-reads.js';

export const DEFAULT_MAX_BATCH = 256;
/** Rows of one INSERT: SQLite binds at most 32,766 parameters per statement (6 per row). */
export const MAX_ROWS_PER_STATEMENT = 5000;
/**
 * PostgreSQL: batches run at once, each on a pooled connection of its own, so one commit's
 * round trip does not hold every waiting request; the rest of the pool serves the token
 * lookups and the relay. Write batches in flight never share an id (the group commit's key),
 * so the first request for an id is still the first to commit. SQLite has one connection:
 * its batches take turns.
 */
const PG_LOOKUPS_IN_FLIGHT = 4;
const PG_WRITES_IN_FLIGHT = 4;
/**
 * A write batch beside another in flight holds at least this many requests: a statement per
 * two or three requests cost more CPU than the overlap saved where the CPU was the bound.
 */
const MIN_WRITE_BATCH_BESIDE_ANOTHER = 8;

/**
 * Plants in SQL with statements of its own (plant-sql.ts) run through TypeORM's DataSource:
 * every plant port of the domain, each job in a part of its own (creates, reads, changes).
 */
export class SqlPlantRepository implements PlantRepository, PlantBatchRepository, PlantReader, PlantChangeRepository {
  private readonly inserts: SqlPlantInserts;
  private readonly reads: SqlPlantReads;
  private readonly changes: SqlPlantChanges;

  constructor(dataSource: DataSource, maxBatch = DEFAULT_MAX_BATCH) {
    const statements = new SqlRunner(dataSource);
    // Statement texts are kept per row count; past the default they would grow too large to keep.
    const sql = plantSqlFor(engineOf(dataSource), Math.min(maxBatch, DEFAULT_MAX_BATCH));
    const times = new IsoTimeText();
    const writes = {
      maxFlushesInFlight: batchesInFlight(dataSource, PG_WRITES_IN_FLIGHT),
      minBatchBesideAnother: Math.min(MIN_WRITE_BATCH_BESIDE_ANOTHER, maxBatch),
    };
    this.inserts = new SqlPlantInserts(statements, sql, times, maxBatch, {
      ...writes,
      keyOf: (request) => request.plant.id.toString(),
    });
    this.changes = new SqlPlantChanges(statements, sql, times, maxBatch, {
      ...writes,
      keyOf: (change) => (change.kind === 'replace' ? change.plant.id : change.id).toString(),
    });
    this.reads = new SqlPlantReads(statements, sql, {
      maxFlushesInFlight: batchesInFlight(dataSource, PG_LOOKUPS_IN_FLIGHT),
    });
  }

  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    return this.inserts.insertIfAbsent(plant, provenance);
  }

  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    if (plants.length > MAX_ROWS_PER_STATEMENT)
      throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} plants per batch, not ${plants.length}`);
    return plants.length === 0 ? [] : this.inserts.insertAll(plants, provenance);
  }

  listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    return this.reads.listPage({ after, limit, tags: [] });
  }

  findById(id: PlantId): Promise<Plant | undefined> {
    return this.reads.findById(id);
  }

  listPage(request: PlantPageRequest): Promise<Plant[]> {
    return this.reads.listPage(request);
  }

  stateOf(id: PlantId): Promise<PlantState | undefined> {
    return this.reads.stateOf(id);
  }

  replace(plant: Plant, expectedVersion: number, revision: PlantRevision): Promise<boolean> {
    return this.changes.submit({ kind: 'replace', plant, expectedVersion, revision });
  }

  retire(id: PlantId, expectedVersion: number, retirement: PlantRetirement): Promise<boolean> {
    return this.changes.submit({ kind: 'retire', id, expectedVersion, retirement });
  }
}

function batchesInFlight(dataSource: DataSource, onPostgres: number): number {
  if (engineOf(dataSource) !== 'postgres') return 1;
  // A small pool still leaves a connection to the other queries.
  const poolSize = (dataSource.options as { poolSize?: number }).poolSize ?? 10;
  return Math.max(1, Math.min(onPostgres, poolSize - 1));
}
