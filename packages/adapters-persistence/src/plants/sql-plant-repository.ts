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
import { DEFAULT_PG_POOL_SIZE } from '../config/database-config.js';
import { DEFAULT_MAX_BATCH, MAX_ROWS_PER_STATEMENT, plantBatchTuningFor } from '../config/write-path-tuning.js';
import { SqlRunner, type SqlRunnerOptions } from '../connection/sql-runner.js';
import { IsoTimeText } from './plant-rows.js';
import { plantSqlFor } from './plant-sql.js';
import { SqlPlantChanges } from './sql-plant-changes.js';
import { SqlPlantInserts } from './sql-plant-inserts.js';
import { SqlPlantReads } from './sql-plant-reads.js';
import { SqliteNameIndex } from './sqlite-name-index.js';

export interface SqlPlantRepositoryOptions extends SqlRunnerOptions {
  /** Requests per batch of creates or changes (DEFAULT_MAX_BATCH). */
  readonly maxBatch?: number;
}

/**
 * Plants in SQL with statements of its own (plant-sql.ts) run through TypeORM's DataSource:
 * every plant port of the domain, each job in a part of its own (creates, reads, changes),
 * each part with its batcher tuned by write-path-tuning.ts.
 */
export class SqlPlantRepository implements PlantRepository, PlantBatchRepository, PlantReader, PlantChangeRepository {
  private readonly inserts: SqlPlantInserts;
  private readonly reads: SqlPlantReads;
  private readonly changes: SqlPlantChanges;
  private readonly nameIndex: SqliteNameIndex | undefined;

  constructor(dataSource: DataSource, { maxBatch = DEFAULT_MAX_BATCH, ...runner }: SqlPlantRepositoryOptions = {}) {
    const statements = new SqlRunner(dataSource, runner);
    // Statement texts are kept per row count; past the default they would grow too large to keep.
    const sql = plantSqlFor(statements.engine, Math.min(maxBatch, DEFAULT_MAX_BATCH));
    const times = new IsoTimeText();
    const tuning = plantBatchTuningFor(statements.engine, poolSizeOf(dataSource), maxBatch);
    this.inserts = new SqlPlantInserts(statements, sql, times, tuning.creates);
    this.changes = new SqlPlantChanges(statements, sql, times, tuning.changes);
    this.reads = new SqlPlantReads(statements, sql, tuning.lookups);
    this.nameIndex = statements.engine === 'sqlite' ? new SqliteNameIndex(statements) : undefined;
  }

  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    return this.inserts.insertIfAbsent(plant, provenance);
  }

  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    if (plants.length > MAX_ROWS_PER_STATEMENT)
      throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} plants per batch, not ${plants.length}`);
    if (plants.length === 0) return [];
    const outcomes = await this.inserts.insertAll(plants, provenance);
    // A batch of an import is indexed at once, in passes as large as it: the cheapest time to do it.
    await this.nameIndex?.catchUp();
    return outcomes;
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

function poolSizeOf(dataSource: DataSource): number {
  return (dataSource.options as { poolSize?: number }).poolSize ?? DEFAULT_PG_POOL_SIZE;
}
