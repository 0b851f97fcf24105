import type { InsertOutcome, Plant, PlantProvenance } from '@plantstore/domain';
import type { BatchTuning } from '../config/write-path-tuning.js';
import type { SqlRunner } from '../connection/sql-runner.js';
import { Batcher } from './batcher.js';
import { orEachAlone } from './each-alone.js';
import { commitPlantWrite } from './plant-write.js';
import { byIdAscending, fulfilled, rejected, toPlant, type IsoTimeText } from './plant-rows.js';
import type { NewPlantRow, PlantSql, StoredPlantRow } from './plant-sql.js';

interface NewPlant {
  readonly plant: Plant;
  readonly provenance: PlantProvenance;
}

type Settled = PromiseSettledResult<InsertOutcome>;

/**
 * Creates in SQL. Single creates go through a group commit (batcher.ts): creates that arrive
 * while a write is in flight are committed together as ONE statement, so many share one disk
 * flush while each caller still resolves only after the flush that covers its row, with what
 * the store holds for its id; whether that is a replay, a conflict or a retired id is the
 * domain's to say. Batches in flight never share an id, so the first request for an id is the
 * first to commit. Nothing is awaited inside a transaction (docs/storage.md#one-writer).
 */
export class SqlPlantInserts {
  private readonly groupCommit: Batcher<NewPlant, InsertOutcome>;

  constructor(
    private readonly statements: SqlRunner,
    private readonly sql: PlantSql,
    private readonly times: IsoTimeText,
    tuning: BatchTuning,
  ) {
    this.groupCommit = new Batcher(
      orEachAlone((batch) => this.insertOrFind(batch)),
      { ...tuning, keyOf: (create) => create.plant.id.toString() },
    );
  }

  insertIfAbsent(plant: Plant, provenance: PlantProvenance): Promise<InsertOutcome> {
    return this.groupCommit.submit({ plant, provenance });
  }

  /** One statement, hence one transaction, for the whole batch: an import's unit of durability. */
  async insertAll(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    const settled = await this.insertOrFind(plants.map((plant) => ({ plant, provenance })));
    return settled.map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
  }

  /**
   * The one insert-or-find: inserts the rows whose ids are free in ONE statement, then reads
   * back what the store holds for the others (a plant, or a tombstone). An id given twice is
   * written by its first row (the statement inserts in input order and skips the later one as
   * taken). One outcome per row, in input order; throws (as a storage error where it is one)
   * when a statement fails.
   */
  private async insertOrFind(rows: readonly NewPlant[]): Promise<Settled[]> {
    // Sorted ids give every PostgreSQL writer the same lock order: no deadlock between batches.
    // The sort is stable: of two rows with one id, the first stays first.
    const candidates = rows.map((row) => this.toRow(row)).sort(byIdAscending);
    const inserted = new Set(
      (await commitPlantWrite<{ id: string }>(this.statements, this.sql.insertIfAbsent(candidates))).map(
        (row) => row.id,
      ),
    );
    const writtenBy = new Map<string, NewPlant>();
    for (const row of rows) {
      const key = row.plant.id.toString();
      if (inserted.has(key) && !writtenBy.has(key)) writtenBy.set(key, row);
    }
    const taken = rows.filter((row) => writtenBy.get(row.plant.id.toString()) !== row).map(({ plant }) => plant.id);
    const stored = taken.length === 0 ? [] : await this.statements.run<StoredPlantRow>(this.sql.selectByIds(taken));
    const existing = new Map(stored.map((row) => [row.id, row]));
    return rows.map((row): Settled => {
      const key = row.plant.id.toString();
      if (writtenBy.get(key) === row) return fulfilled({ inserted: true });
      const found = existing.get(key);
      if (found === undefined) return rejected(new Error(`plant ${key} was neither inserted nor found`));
      return fulfilled(
        found.deleted_at === null ? { inserted: false, existing: toPlant(found) } : { inserted: false, retired: true },
      );
    });
  }

  private toRow({ plant, provenance }: NewPlant): NewPlantRow {
    return {
      id: plant.id,
      name: plant.name.value,
      tag: plant.tag?.value ?? null,
      createdByTokenId: provenance.createdByTokenId ?? null,
      createdAt: this.times.of(provenance.createdAt),
    };
  }
}
