import {
  Plant,
  PlantId,
  type InsertOutcome,
  type PlantBatchRepository,
  type PlantPageRequest,
  type PlantProvenance,
  type PlantReader,
  type PlantRepository,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { engineOf } from './create-data-source.js';
import { GroupCommit } from './group-commit.js';
import { lockWaitOf, retryWhileLocked } from './lock-wait.js';
import { plantSqlFor, type NewPlantRow, type PlantSql, type Statement, type StoredPlantRow } from './plant-sql.js';
import { asStorageError, isStorageUnavailable } from './storage-errors.js';

export const DEFAULT_MAX_BATCH = 256;
/** Rows of one INSERT: SQLite binds at most 32,766 parameters per statement (5 per row). */
export const MAX_ROWS_PER_STATEMENT = 6000;
/** Ids of one batched lookup (GET /plants/{id} of one event-loop turn). */
const MAX_IDS_PER_READ = 500;
/**
 * PostgreSQL: batches run at once, each on a pooled connection of its own, so one commit's
 * round trip does not hold every waiting request; the rest of the pool serves the token
 * lookups and the relay. Insert batches in flight never share an id (the group commit's key),
 * so the first request for an id is still the first to commit. SQLite has one connection:
 * its batches take turns.
 */
const PG_LOOKUPS_IN_FLIGHT = 4;
const PG_INSERTS_IN_FLIGHT = 4;
/**
 * An insert batch beside another in flight holds at least this many creates: a statement per
 * two or three creates cost more CPU than the overlap saved where the CPU was the bound.
 */
const MIN_INSERT_BATCH_BESIDE_ANOTHER = 8;

interface NewPlant {
  readonly plant: Plant;
  readonly provenance: PlantProvenance;
}

type Settled = PromiseSettledResult<InsertOutcome>;

/**
 * Plants in SQL, with statements of its own (plant-sql.ts) run through TypeORM's DataSource.
 * Single inserts go through a group commit (group-commit.ts): requests that arrive while a
 * write is in flight are committed together as ONE statement, so many requests share one disk
 * flush while each caller still resolves only after the flush that covers its row, with what
 * the store holds for its id; whether that is a replay or a conflict is the domain's to say.
 *
 * One statement per batch also means no explicit transaction: nothing is awaited inside a
 * transaction, so better-sqlite3's single shared connection cannot interleave statements of
 * different requests (docs/storage.md#one-writer). `INSERT … ON CONFLICT (id) DO NOTHING
 * RETURNING id` is atomic on both engines; rows it skipped already exist and are read back.
 */
export class SqlPlantRepository implements PlantRepository, PlantBatchRepository, PlantReader {
  private readonly sql: PlantSql;
  private readonly singles: GroupCommit<NewPlant, InsertOutcome>;
  private readonly lookups: GroupCommit<PlantId, Plant | undefined>;
  private readonly lockWaitMs: number;
  private lastIsoTime = Number.NaN;
  private lastIsoText = '';

  constructor(
    private readonly dataSource: DataSource,
    maxBatch = DEFAULT_MAX_BATCH,
  ) {
    // The INSERT text of each batch size is kept; past the default the texts would grow too large to keep.
    this.sql = plantSqlFor(engineOf(dataSource), Math.min(maxBatch, DEFAULT_MAX_BATCH));
    this.lockWaitMs = lockWaitOf(dataSource);
    this.singles = new GroupCommit((batch) => this.insertOrFindEachAlone(batch), maxBatch, {
      maxFlushesInFlight: batchesInFlight(dataSource, PG_INSERTS_IN_FLIGHT),
      minBatchBesideAnother: Math.min(MIN_INSERT_BATCH_BESIDE_ANOTHER, maxBatch),
      keyOf: (request) => request.plant.id.toString(),
    });
    // Reads batch the same way: the lookups of one turn are one SELECT, so a busy reader pays
    // TypeORM's per-query cost once per turn rather than once per request.
    this.lookups = new GroupCommit((ids) => this.findByIds(ids), MAX_IDS_PER_READ, {
      maxFlushesInFlight: batchesInFlight(dataSource, PG_LOOKUPS_IN_FLIGHT),
    });
  }

  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    return this.singles.submit({ plant, provenance });
  }

  /** One statement, hence one transaction, for the whole batch: the import's unit of durability. */
  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    if (plants.length > MAX_ROWS_PER_STATEMENT)
      throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} plants per batch, not ${plants.length}`);
    if (plants.length === 0) return [];
    const settled = await this.insertOrFind(plants.map((plant) => ({ plant, provenance })));
    return settled.map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
  }

  listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    return this.listPage({ after, limit, tags: [] });
  }

  findById(id: PlantId): Promise<Plant | undefined> {
    return this.lookups.submit(id);
  }

  /** One statement per page: each page is read at one moment, so a walk by the last id misses nothing that existed. */
  async listPage({ after, tags, limit }: PlantPageRequest): Promise<Plant[]> {
    const texts = tags.map((tag) => tag.value);
    return (await this.query(this.sql.selectPage(after, limit, texts))).map(toPlant);
  }

  /** One statement for a turn's lookups; an id asked for twice is read once. */
  private async findByIds(ids: readonly PlantId[]): Promise<Array<PromiseFulfilledResult<Plant | undefined>>> {
    const distinct = new Map(ids.map((id) => [id.toString(), id]));
    const rows = await this.query(this.sql.selectByIds([...distinct.values()]));
    const found = new Map(rows.map((row) => [row.id, toPlant(row)]));
    return ids.map((id) => ({ status: 'fulfilled', value: found.get(id.toString()) }));
  }

  /**
   * insertOrFind for rows of different requests: a row the database refuses must not fail its
   * neighbours, so when the statement fails for anything but an outage, each row is retried
   * alone and only the refused one fails.
   */
  private async insertOrFindEachAlone(rows: readonly NewPlant[]): Promise<Settled[]> {
    try {
      return await this.insertOrFind(rows);
    } catch (error) {
      if (rows.length === 1 || isStorageUnavailable(error)) return rows.map(() => rejected(error));
      const outcomes: Settled[] = [];
      for (const row of rows) outcomes.push(...(await this.insertOrFind([row]).catch((e: unknown) => [rejected(e)])));
      return outcomes;
    }
  }

  /**
   * The one insert-or-find: inserts the rows whose ids are free in ONE statement, then reads
   * back what the store holds for the others. An id given twice is written by its first row
   * (the statement inserts in input order and skips the later one as taken). One outcome per
   * row, in input order; throws (as a storage error where it is one) when a statement fails.
   */
  private async insertOrFind(rows: readonly NewPlant[]): Promise<Settled[]> {
    // Sorted ids give every PostgreSQL writer the same lock order: no deadlock between batches.
    // The sort is stable: of two rows with one id, the first stays first.
    const candidates = [...rows].sort(byIdAscending).map((row) => this.toRow(row));
    const inserted = new Set(
      (await this.query<{ id: string }>(this.sql.insertIfAbsent(candidates))).map((row) => row.id),
    );
    const writtenBy = new Map<string, NewPlant>();
    for (const row of rows) {
      const key = row.plant.id.toString();
      if (inserted.has(key) && !writtenBy.has(key)) writtenBy.set(key, row);
    }
    const taken = rows.filter((row) => writtenBy.get(row.plant.id.toString()) !== row).map(({ plant }) => plant.id);
    const stored = taken.length === 0 ? [] : await this.query(this.sql.selectByIds(taken));
    const existing = new Map(stored.map((row) => [row.id, toPlant(row)]));
    return rows.map((row): Settled => {
      const key = row.plant.id.toString();
      if (writtenBy.get(key) === row) return fulfilled({ inserted: true });
      const found = existing.get(key);
      return found === undefined
        ? rejected(new Error(`plant ${key} was neither inserted nor found`))
        : fulfilled({ inserted: false, existing: found });
    });
  }

  private toRow({ plant, provenance }: NewPlant): NewPlantRow {
    return {
      id: plant.id,
      name: plant.name.value,
      tag: plant.tag?.value ?? null,
      createdByTokenId: provenance.createdByTokenId ?? null,
      createdAt: this.isoText(provenance.createdAt),
    };
  }

  /** The creates of one batch were mostly made within the same millisecond: its text is written once. */
  private isoText(instant: Date): string {
    const time = instant.getTime();
    if (time !== this.lastIsoTime) [this.lastIsoTime, this.lastIsoText] = [time, instant.toISOString()];
    return this.lastIsoText;
  }

  private async query<Row = StoredPlantRow>({ sql, parameters }: Statement): Promise<Row[]> {
    try {
      return await retryWhileLocked(() => this.dataSource.query(sql, parameters), this.lockWaitMs);
    } catch (error) {
      throw asStorageError(error);
    }
  }
}

function toPlant(row: StoredPlantRow): Plant {
  return Plant.fromStored(PlantId.fromStored(row.id), row.name, row.tag);
}

function byIdAscending(a: NewPlant, b: NewPlant): number {
  const x = a.plant.id.value;
  const y = b.plant.id.value;
  return x < y ? -1 : x > y ? 1 : 0;
}

function fulfilled(value: InsertOutcome): Settled {
  return { status: 'fulfilled', value };
}

function rejected(reason: unknown): Settled {
  return { status: 'rejected', reason };
}

function batchesInFlight(dataSource: DataSource, onPostgres: number): number {
  if (engineOf(dataSource) !== 'postgres') return 1;
  // A small pool still leaves a connection to the other queries.
  const poolSize = (dataSource.options as { poolSize?: number }).poolSize ?? 10;
  return Math.max(1, Math.min(onPostgres, poolSize - 1));
}
