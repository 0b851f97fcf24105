import type { Plant, PlantId, PlantRetirement, PlantRevision } from '@plantstore/domain';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import { isStorageUnavailable } from '../connection/storage-errors.js';
import type { SqlRunner } from '../connection/sql-runner.js';
import { byIdAscending, fulfilled, rejected, type IsoTimeText } from './plant-rows.js';
import type { PlantChangeRow, PlantSql } from './plant-sql.js';

/** A change as requested: new content for a live plant, or its deletion, at the version its caller read. */
export type PlantChange =
  | {
      readonly kind: 'replace';
      readonly plant: Plant;
      readonly expectedVersion: number;
      readonly revision: PlantRevision;
    }
  | {
      readonly kind: 'retire';
      readonly id: PlantId;
      readonly expectedVersion: number;
      readonly retirement: PlantRetirement;
    };

type Settled = PromiseSettledResult<boolean>;

/**
 * Changes and deletions in SQL, compare-and-set on the plant's version, batched like creates:
 * the changes of one flush are one UPDATE, which writes those whose plant is still live at the
 * version their caller read, raises it, and (through the plant table's trigger) records each
 * change's event in the same statement. Deleting writes the tombstone over the row: no name,
 * no tag, when and by whom; the id stays taken for ever.
 */
export class SqlPlantChanges {
  private readonly changes: GroupCommit<PlantChange, boolean>;

  constructor(
    private readonly statements: SqlRunner,
    private readonly sql: PlantSql,
    private readonly times: IsoTimeText,
    maxBatch: number,
    options: GroupCommitOptions<PlantChange>,
  ) {
    this.changes = new GroupCommit((batch) => this.changeEachAlone(batch), maxBatch, options);
  }

  submit(change: PlantChange): Promise<boolean> {
    return this.changes.submit(change);
  }

  /** A row the database refuses (or a deadlock between instances) must not fail its neighbours: each is tried alone. */
  private async changeEachAlone(batch: readonly PlantChange[]): Promise<Settled[]> {
    try {
      return await this.change(batch);
    } catch (error) {
      if (batch.length === 1 || isStorageUnavailable(error)) return batch.map(() => rejected(error));
      const outcomes: Settled[] = [];
      for (const change of batch) outcomes.push(...(await this.change([change]).catch((e: unknown) => [rejected(e)])));
      return outcomes;
    }
  }

  /**
   * The changes of a batch, one statement per round: a plant changed twice in one batch has
   * its later change in the next round, judged on the version the first one left.
   */
  private async change(batch: readonly PlantChange[]): Promise<Settled[]> {
    const outcomes: Settled[] = new Array<Settled>(batch.length);
    let waiting = batch.map((change, index) => ({ row: this.toRow(change), index }));
    while (waiting.length > 0) {
      const round = new Map<string, (typeof waiting)[number]>();
      const later: typeof waiting = [];
      for (const entry of waiting) {
        const key = entry.row.id.toString();
        if (round.has(key)) later.push(entry);
        else round.set(key, entry);
      }
      // Sorted ids give every PostgreSQL writer the same lock order.
      const rows = [...round.values()].map((entry) => entry.row).sort(byIdAscending);
      const written = new Set(
        (await this.statements.run<{ id: string }>(this.sql.changeIfCurrent(rows))).map((row) => row.id),
      );
      for (const [key, entry] of round) outcomes[entry.index] = fulfilled(written.has(key));
      waiting = later;
    }
    return outcomes;
  }

  private toRow(change: PlantChange): PlantChangeRow {
    if (change.kind === 'replace') {
      const { plant, expectedVersion, revision } = change;
      return {
        id: plant.id,
        expectedVersion,
        name: plant.name.value,
        tag: plant.tag?.value ?? null,
        changedAt: this.times.of(revision.changedAt),
        deletedAt: null,
        deletedByTokenId: null,
      };
    }
    const { id, expectedVersion, retirement } = change;
    const at = this.times.of(retirement.retiredAt);
    return {
      id,
      expectedVersion,
      name: null,
      tag: null,
      // A tombstone keeps only when it was deleted: every byte of it is kept for ever.
      changedAt: null,
      deletedAt: at,
      deletedByTokenId: retirement.retiredByTokenId ?? null,
    };
  }
}
