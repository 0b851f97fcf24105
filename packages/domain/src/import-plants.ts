import type { Clock } from './clock.js';
import { PlantConflictError, PlantValidationError } from './errors.js';
import type { NewPlantInput } from './plant.js';
import { Plant } from './plant.js';
import type { UncheckedNewPlant } from './new-plant-shape.js';
import type { PlantBatchRepository } from './plant-repository.js';

/**
 * One line (or record) of an import file. `source` is whatever the adapter needs to give the
 * line back (its original text, for a rejects file); the use case only carries it.
 */
export type ImportLine<S> =
  | { readonly line: number; readonly source: S; readonly plant: NewPlantInput | UncheckedNewPlant }
  /** The adapter could not read a plant from the line at all (bad JSON, wrong field count). */
  | { readonly line: number; readonly source: S; readonly unreadable: string };

export interface ImportRejection<S> {
  readonly entry: ImportLine<S>;
  readonly reason: 'invalid' | 'conflict';
  /** What the API would answer for the same plant. */
  readonly message: string;
}

export interface ImportTotals {
  readonly imported: number;
  readonly unchanged: number;
  readonly conflicts: number;
  readonly invalid: number;
  /** Lines read so far, whatever became of them. */
  readonly lines: number;
}

export interface ImportListener<S> {
  /** After each durable batch, in line order: that batch's rejected lines, then the running totals. */
  batchCommitted(rejections: readonly ImportRejection<S>[], totals: ImportTotals): void | Promise<void>;
}

export interface ImportResult extends ImportTotals {
  /** The signal stopped the import between two batches; running it again completes it. */
  readonly interrupted: boolean;
}

export const DEFAULT_IMPORT_BATCH_SIZE = 1000;

/**
 * Bulk create with the API's rules: every line goes through Plant.parse, and a taken id is
 * `unchanged` when the stored plant has the same content, a conflict otherwise (as a retried
 * or clashing POST). Lines are written in batches of one transaction each, so an interrupted
 * import leaves whole batches and re-running it only adds what is missing.
 */
export class ImportPlants {
  constructor(
    private readonly plants: PlantBatchRepository,
    private readonly clock: Clock,
    private readonly batchSize = DEFAULT_IMPORT_BATCH_SIZE,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, not ${batchSize}`);
  }

  async execute<S>(lines: AsyncIterable<ImportLine<S>>, listener: ImportListener<S>, signal?: { readonly aborted: boolean }): Promise<ImportResult> {
    const totals = { imported: 0, unchanged: 0, conflicts: 0, invalid: 0, lines: 0 };
    let batch: ImportLine<S>[] = [];
    for await (const entry of lines) {
      batch.push(entry);
      totals.lines++;
      if (batch.length < this.batchSize) continue;
      await this.commit(batch, totals, listener);
      batch = [];
      if (signal?.aborted) return { ...totals, interrupted: true };
    }
    if (batch.length > 0) await this.commit(batch, totals, listener);
    return { ...totals, interrupted: false };
  }

  private async commit<S>(batch: readonly ImportLine<S>[], totals: Mutable<ImportTotals>, listener: ImportListener<S>): Promise<void> {
    const rejections: ImportRejection<S>[] = [];
    const parsed = batch.map((entry) => {
      const result = 'unreadable' in entry ? undefined : Plant.parse(entry.plant);
      if (result?.ok) return result.plant;
      const message = result === undefined ? (entry as { unreadable: string }).unreadable : new PlantValidationError(result.violations).message;
      rejections.push({ entry, reason: 'invalid', message });
      return undefined;
    });

    // The first line of an id goes to the database; later lines of the same batch compare with what it stored.
    const firstOfId = new Map<string, Plant>();
    for (const plant of parsed) if (plant && !firstOfId.has(plant.id.toString())) firstOfId.set(plant.id.toString(), plant);
    const candidates = [...firstOfId.values()];
    const outcomes = candidates.length === 0 ? [] : await this.plants.insertAllIfAbsent(candidates, { createdByTokenId: undefined, createdAt: this.clock.now() });
    const stored = new Map<string, { plant: Plant; insertedBy: Plant | undefined }>();
    candidates.forEach((plant, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) throw new Error(`the repository returned no outcome for plant ${plant.id}`);
      stored.set(plant.id.toString(), outcome.inserted ? { plant, insertedBy: plant } : { plant: outcome.existing, insertedBy: undefined });
    });

    batch.forEach((entry, i) => {
      const plant = parsed[i];
      if (plant === undefined) return;
      const { plant: existing, insertedBy } = stored.get(plant.id.toString())!;
      if (insertedBy === plant) totals.imported++;
      else if (existing.hasSameContentAs(plant)) totals.unchanged++;
      else rejections.push({ entry, reason: 'conflict', message: new PlantConflictError(plant.id).message });
    });
    rejections.sort((a, b) => a.entry.line - b.entry.line);
    for (const rejection of rejections) {
      if (rejection.reason === 'invalid') totals.invalid++;
      else totals.conflicts++;
    }
    await listener.batchCommitted(rejections, { ...totals });
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
