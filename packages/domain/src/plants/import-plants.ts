import type { Clock } from '../common/clock.js';
import type { NewPlantRecord } from './new-plant-shape.js';
import { insertFirstOfEachId, settleCreate } from './duplicate-ids.js';
import { PlantConflictError, PlantIdRetiredError, PlantValidationError } from './plant-errors.js';
import type { InsertOutcome, PlantBatchRepository, PlantProvenance } from './plant-repository.js';
import { Plant } from './plant.js';

/**
 * One line (or record) of an import file. `source` is whatever the adapter needs to give the
 * line back (its original text, for a rejects file); the use case only carries it.
 */
export type ImportLine<S> =
  | { readonly line: number; readonly source: S; readonly plant: NewPlantRecord }
  /** The adapter could not read a plant from the line at all (bad JSON, wrong field count). */
  | { readonly line: number; readonly source: S; readonly unreadable: string };

export interface ImportRejection<S> {
  readonly entry: ImportLine<S>;
  readonly reason: 'invalid' | 'conflict' | 'retired';
  /** What the API would answer for the same plant. */
  readonly message: string;
}

export interface ImportTotals {
  readonly imported: number;
  /** Already stored with the same name and tag: nothing written (CreatePlant's `replayed`). */
  readonly replayed: number;
  readonly conflicts: number;
  /** The id belonged to a plant that was deleted: ids are never used again. */
  readonly retired: number;
  readonly invalid: number;
  /** Lines read so far, whatever became of them. */
  readonly lines: number;
}

export interface ImportListener<S> {
  /**
   * A line that is not stored: an invalid one as soon as it is read (it is never held in
   * memory), a conflict once its batch is durable.
   */
  rejected(rejection: ImportRejection<S>): void | Promise<void>;
  /** After each durable batch, with the running totals. */
  batchCommitted(totals: ImportTotals): void | Promise<void>;
}

export interface ImportResult extends ImportTotals {
  /** The signal stopped the import between two batches; running it again completes it. */
  readonly interrupted: boolean;
}

export const DEFAULT_IMPORT_BATCH_SIZE = 1000;

/**
 * Bulk create with the API's rules: every line goes through Plant.parseRecord, and a taken id is
 * `replayed` when the stored plant has the same content, a conflict otherwise (as a retried
 * or clashing POST), and refused as `retired` when it belonged to a deleted plant. Valid plants are written in batches of one transaction each, so an
 * interrupted import leaves whole batches and re-running it only adds what is missing.
 * Only the current batch's valid plants are held: memory stays flat whatever the input.
 */
export class ImportPlants {
  /** @throws {RangeError} `batchSize` is not a positive integer. */
  constructor(
    private readonly plants: PlantBatchRepository,
    private readonly clock: Clock,
    private readonly batchSize = DEFAULT_IMPORT_BATCH_SIZE,
  ) {
    // Checked here so a wrong size fails at wiring time, not mid-import.
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new RangeError(`batch size must be a positive integer, not ${batchSize}`);
  }

  /**
   * Lines arrive in groups, as the adapter reads them (say one group per chunk of the file):
   * a million lines then cost a few thousand awaits, not a million. Invalid lines and
   * conflicts are not failures: they go to `listener.rejected` and the import goes on.
   * @throws {StorageUnavailableError} the store failed; the batches already committed stay.
   * @throws whatever `groups` or `listener` throw, unchanged; the batches already committed stay.
   */
  async execute<S>(
    groups: AsyncIterable<readonly ImportLine<S>[]>,
    listener: ImportListener<S>,
    signal?: { readonly aborted: boolean },
  ): Promise<ImportResult> {
    const totals: Mutable<ImportTotals> = { imported: 0, replayed: 0, conflicts: 0, retired: 0, invalid: 0, lines: 0 };
    let batch: Valid<S>[] = [];
    for await (const group of groups) {
      for (const entry of group) {
        totals.lines++;
        const plant = await this.validate(entry, totals, listener);
        if (plant === undefined) continue;
        batch.push({ entry, plant });
        if (batch.length < this.batchSize) continue;
        await this.commit(batch, totals, listener);
        batch = [];
        // Checked only here, between batches: whatever was read past this point was never written.
        if (signal?.aborted) return { ...totals, interrupted: true };
      }
    }
    // The input may also end because the signal stopped its reading (a stalled pipe): the
    // lines after the last whole batch are then left unwritten, as above.
    if (signal?.aborted) return { ...totals, interrupted: true };
    if (batch.length > 0) await this.commit(batch, totals, listener);
    return { ...totals, interrupted: false };
  }

  private async validate<S>(
    entry: ImportLine<S>,
    totals: Mutable<ImportTotals>,
    listener: ImportListener<S>,
  ): Promise<Plant | undefined> {
    const parsed = 'unreadable' in entry ? undefined : Plant.parseRecord(entry.plant);
    if (parsed?.ok) return parsed.plant;
    totals.invalid++;
    const message =
      parsed === undefined
        ? (entry as { unreadable: string }).unreadable
        : new PlantValidationError(parsed.violations).message;
    await listener.rejected({ entry, reason: 'invalid', message });
    return undefined;
  }

  private async commit<S>(
    batch: readonly Valid<S>[],
    totals: Mutable<ImportTotals>,
    listener: ImportListener<S>,
  ): Promise<void> {
    const provenance = { createdByTokenId: undefined, createdAt: this.clock.now() };
    const inserts = await insertFirstOfEachId(
      batch,
      (valid) => valid.plant,
      (firsts) => this.insertAll(firsts, provenance),
    );
    for (const [i, { entry, plant }] of batch.entries()) {
      // Every outcome is fulfilled: insertAll throws rather than failing one plant.
      const insert = inserts[i] as PromiseFulfilledResult<InsertOutcome>;
      const { outcome } = settleCreate(plant, insert.value);
      if (outcome === 'created') totals.imported++;
      else if (outcome === 'replayed') totals.replayed++;
      else if (outcome === 'retired') {
        totals.retired++;
        await listener.rejected({ entry, reason: 'retired', message: new PlantIdRetiredError(plant.id).message });
      } else {
        totals.conflicts++;
        await listener.rejected({ entry, reason: 'conflict', message: new PlantConflictError(plant.id).message });
      }
    }
    await listener.batchCommitted({ ...totals });
  }

  /** One transaction for the batch's distinct ids; it throws rather than failing one plant. */
  private async insertAll<S>(
    firsts: readonly Valid<S>[],
    provenance: PlantProvenance,
  ): Promise<Array<PromiseFulfilledResult<InsertOutcome>>> {
    const outcomes = await this.plants.insertAllIfAbsent(
      firsts.map((valid) => valid.plant),
      provenance,
    );
    return outcomes.map((value) => ({ status: 'fulfilled', value }));
  }
}

interface Valid<S> {
  readonly entry: ImportLine<S>;
  readonly plant: Plant;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
