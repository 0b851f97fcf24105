import type { Plant, PlantId, PlantRetirement, PlantRevision } from '@plantstore/domain';
import type { BatchTuning } from '../config/write-path-tuning.js';
import type { SqlRunner } from '../connection/sql-runner.js';
import { Batcher } from './batcher.js';
import { orEachAlone } from './each-alone.js';
import { commitPlantWrite } from './plant-write.js';
import { byIdAscending, fulfilled, type IsoTimeText } from './plant-rows.js';
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
  private readonly groupCommit: Batcher<PlantChange, boolean>;

  constructor(
    private readonly statements: SqlRunner,
    private readonly sql: PlantSql,
    private readonly times: IsoTimeText,
    tuning: BatchTuning,
  ) {
    this.groupCommit = new Batcher(
      orEachAlone((batch) => this.change(batch)),
      { ...tuning, keyOf: (change) => idOf(change).toString() },
    );
  }

  /** Whether the change was written: false when the plant is not live at `expectedVersion`. */
  submit(change: PlantChange): Promise<boolean> {
    return this.groupCommit.submit(change);
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
        (await commitPlantWrite<{ id: string }>(this.statements, this.sql.changeIfCurrent(rows))).map((row) => row.id),
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

function idOf(change: PlantChange): PlantId {
  return change.kind === 'replace' ? change.plant.id : change.id;
}
