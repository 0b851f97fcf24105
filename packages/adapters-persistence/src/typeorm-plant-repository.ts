import {
  Plant,
  PlantId,
  type InsertOutcome,
  type PlantBatchRepository,
  type PlantProvenance,
  type PlantRepository,
} from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { engineOf } from './create-data-source.js';
import { PlantSchema, type PlantRow } from './schema/plant.schema.js';
import { asStorageError, isStorageUnavailable } from './storage-errors.js';

interface PendingInsert extends NewRow {
  readonly resolve: (outcome: InsertOutcome) => void;
  readonly reject: (error: unknown) => void;
}

const COLUMNS_PER_ROW = 5;
export const DEFAULT_MAX_BATCH = 256;
/** Rows of one INSERT: SQLite binds at most 32,766 parameters per statement. */
export const MAX_ROWS_PER_STATEMENT = 6000;

interface NewRow {
  readonly plant: Plant;
  readonly provenance: PlantProvenance;
}

/**
 * Plants in SQL, written by group commit: inserts that arrive while a write is in flight are
 * queued and committed together as ONE statement, so many requests share one disk flush
 * while each caller still resolves only after the flush that covers its row.
 *
 * One statement per batch also means no explicit transaction: nothing is awaited inside a
 * transaction, so better-sqlite3's single shared connection cannot interleave statements of
 * different requests (docs/storage.md#one-writer). `INSERT … ON CONFLICT (id) DO NOTHING RETURNING id` is
 * atomic on both engines; rows it skipped already exist and are read back for comparison.
 */
export class TypeOrmPlantRepository implements PlantRepository, PlantBatchRepository {
  private readonly queue: PendingInsert[] = [];
  private draining = false;
  private readonly postgres: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
  ) {
    this.postgres = engineOf(dataSource) === 'postgres';
  }

  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ plant, provenance, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Yield one turn so requests parsed in the same tick join this batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** One statement, hence one transaction, for the whole batch: the import's unit of durability. */
  async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    if (plants.length > MAX_ROWS_PER_STATEMENT) throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} plants per batch, not ${plants.length}`);
    if (plants.length === 0) return [];
    try {
      const inserted = await this.insertMany(plants.map((plant) => ({ plant, provenance })));
      const missing = plants.filter((plant) => !inserted.has(plant.id.toString()));
      const existing = missing.length === 0 ? new Map<string, Plant>() : await this.findMany(missing.map((plant) => plant.id));
      return plants.map((plant): InsertOutcome => {
        const key = plant.id.toString();
        if (inserted.has(key)) return { inserted: true };
        const stored = existing.get(key);
        if (stored === undefined) throw new Error(`plant ${key} was neither inserted nor found`);
        return { inserted: false, existing: stored };
      });
    } catch (error) {
      throw asStorageError(error);
    }
  }

  async listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    try {
      const query = this.selectPlants().orderBy('plant.id', 'ASC').limit(limit);
      if (after !== undefined) query.where('plant.id > :after', { after: this.idParameter(after) });
      return (await query.getRawMany<Pick<PlantRow, 'id' | 'name' | 'tag'>>()).map(toPlant);
    } catch (error) {
      throw asStorageError(error);
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.writeBatch(this.queue.splice(0, this.maxBatch));
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(batch: readonly PendingInsert[]): Promise<void> {
    const byId = groupById(batch);
    // Sorted ids give every PostgreSQL writer the same lock order: no deadlock between batches.
    const candidates = [...byId.values()].map((group) => group[0]!).sort(byIdAscending);
    try {
      const inserted = await this.insertMany(candidates);
      const missing = candidates.filter((c) => !inserted.has(c.plant.id.toString()));
      const existing = missing.length === 0 ? new Map<string, Plant>() : await this.findMany(missing.map((c) => c.plant.id));
      for (const [key, [first, ...rest]] of byId) {
        if (inserted.has(key)) {
          first!.resolve({ inserted: true });
          for (const later of rest) later.resolve({ inserted: false, existing: first!.plant });
          continue;
        }
        const stored = existing.get(key);
        for (const pending of [first!, ...rest]) {
          if (stored) pending.resolve({ inserted: false, existing: stored });
          else pending.reject(new Error(`plant ${key} was neither inserted nor found`));
        }
      }
    } catch (error) {
      if (candidates.length > 1 && !isStorageUnavailable(error)) {
        // A row the database refuses must not fail its neighbours: retry them one by one.
        for (const group of byId.values()) await this.writeBatch(group);
        return;
      }
      const failure = asStorageError(error);
      for (const pending of batch) pending.reject(failure);
    }
  }

  /** Inserts the rows whose id is free; returns the ids it inserted. */
  private async insertMany(rows: readonly NewRow[]): Promise<Set<string>> {
    const placeholder = this.postgres ? (i: number) => `$${i}` : () => '?';
    const tuples = rows.map((_, r) => {
      const base = r * COLUMNS_PER_ROW;
      return `(${Array.from({ length: COLUMNS_PER_ROW }, (_, c) => placeholder(base + c + 1)).join(', ')})`;
    });
    const parameters = rows.flatMap(({ plant, provenance }) => [
      this.idParameter(plant.id),
      plant.name.value,
      plant.tag?.value ?? null,
      provenance.createdByTokenId ?? null,
      provenance.createdAt.toISOString(),
    ]);
    // Raw SQL on purpose: TypeORM's insert builder has no portable ON CONFLICT … RETURNING,
    // and on SQLite it writes numeric ids into the SQL text instead of binding them.
    const returned: Array<{ id: string | number | bigint }> = await this.dataSource.query(
      `INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES ${tuples.join(', ')}
       ON CONFLICT (id) DO NOTHING RETURNING CAST(id AS TEXT) AS id`,
      parameters,
    );
    return new Set(returned.map((row) => String(row.id)));
  }

  private async findMany(ids: readonly PlantId[]): Promise<Map<string, Plant>> {
    const rows = await this.selectPlants()
      .where('plant.id IN (:...ids)', { ids: ids.map((id) => this.idParameter(id)) })
      .getRawMany<Pick<PlantRow, 'id' | 'name' | 'tag'>>();
    return new Map(rows.map((row) => [String(row.id), toPlant(row)]));
  }

  private selectPlants() {
    return (
      this.dataSource
        .getRepository(PlantSchema)
        .createQueryBuilder('plant')
        // Read ids as text: both drivers would otherwise round values beyond 2^53 through Number.
        .select('CAST(plant.id AS TEXT)', 'id')
        .addSelect('plant.name', 'name')
        .addSelect('plant.tag', 'tag')
    );
  }

  /** better-sqlite3 binds a bigint as a 64-bit integer; node-postgres takes the decimal text. */
  private idParameter(id: PlantId): bigint | string {
    return this.postgres ? id.toString() : id.value;
  }
}

export function toPlant(row: Pick<PlantRow, 'id' | 'name' | 'tag'>): Plant {
  return Plant.fromStored(PlantId.fromStored(String(row.id)), row.name, row.tag);
}

function groupById(batch: readonly PendingInsert[]): Map<string, PendingInsert[]> {
  const groups = new Map<string, PendingInsert[]>();
  for (const pending of batch) {
    const key = pending.plant.id.toString();
    const group = groups.get(key);
    if (group) group.push(pending);
    else groups.set(key, [pending]);
  }
  return groups;
}

function byIdAscending(a: PendingInsert, b: PendingInsert): number {
  const x = a.plant.id.value;
  const y = b.plant.id.value;
  return x < y ? -1 : x > y ? 1 : 0;
}
