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
/** Rows of one INSERT: SQLite binds at most 32,766 parameters per statement (5 per row). */
export const MAX_ROWS_PER_STATEMENT = 6000;
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
    this.inserts = new SqlPlantInserts(statements, sql, times, maxBatch);
    this.changes = new SqlPlantChanges(statements, sql, times, maxBatch);
    this.reads = new SqlPlantReads(statements, sql);
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
