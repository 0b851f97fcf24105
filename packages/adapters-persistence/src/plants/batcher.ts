import type { BatchTuning } from '../config/write-path-tuning.js';

/** Writes (or reads) one batch; answers each item's own outcome, in the batch's order. */
export type FlushBatch<Item, Result> = (batch: readonly Item[]) => Promise<ReadonlyArray<PromiseSettledResult<Result>>>;

interface Waiter<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export interface BatcherOptions<Item> extends Pick<BatchTuning, 'maxBatch'>, Partial<Omit<BatchTuning, 'maxBatch'>> {
  /** Names what an item is about: two items of one key are never in flushes at the same time. */
  readonly keyOf?: (item: Item) => string;
}

/**
 * Items submitted while a flush is in flight wait and go to the next flush together, so many
 * callers share one statement while each caller is still answered only after the flush that
 * covers its item, with that item's own outcome. For writes this is a group commit (many
 * requests share one commit and one disk flush); for lookups, one SELECT per turn.
 *
 * Batches are taken in submission order, at most `maxBatch` items each, and at most
 * `maxFlushesInFlight` of them are written at once: 1 where writes are serial anyway (SQLite's
 * one connection), more where a store commits on several connections in parallel (PostgreSQL's
 * pool), so that a commit's round trip does not idle every other connection. A flush that
 * throws fails every waiter of its batch, and the next batch still runs.
 *
 * A flush beside others in flight costs a statement of its own: with `minBatchBesideAnother`,
 * a few waiting items wait for a flush to finish instead, so the overlap buys round trips
 * without shrinking every batch to an item or two when the CPU, not the round trip, is scarce.
 *
 * With `keyOf`, flushes in parallel never share a key: an item whose key is in a flush in flight
 * waits for that flush, and items of one key reach the flushes in submission order, so the
 * earlier of two writes of a key is always the one that commits first.
 */
export class Batcher<Item, Result> {
  private queue: Array<Waiter<Item, Result>> = [];
  private readonly keysInFlight = new Set<string>();
  private flushesInFlight = 0;
  private startScheduled = false;
  private readonly maxBatch: number;
  private readonly maxFlushesInFlight: number;
  private readonly minBatchBesideAnother: number;
  private readonly keyOf: ((item: Item) => string) | undefined;

  constructor(
    private readonly flush: FlushBatch<Item, Result>,
    { maxBatch, maxFlushesInFlight = 1, minBatchBesideAnother = 1, keyOf }: BatcherOptions<Item>,
  ) {
    for (const [name, value] of Object.entries({ maxBatch, maxFlushesInFlight, minBatchBesideAnother }))
      if (!Number.isSafeInteger(value) || value < 1)
        throw new RangeError(`${name} must be a positive integer, not ${value}`);
    this.maxBatch = maxBatch;
    this.maxFlushesInFlight = maxFlushesInFlight;
    this.minBatchBesideAnother = minBatchBesideAnother;
    // One flush at a time never has two keys in flight: spare every item the key.
    this.keyOf = maxFlushesInFlight > 1 ? keyOf : undefined;
  }

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.startScheduled || this.flushesInFlight >= this.maxFlushesInFlight) return;
      this.startScheduled = true;
      // Yield one turn so items submitted in the same tick join this batch.
      setImmediate(() => {
        this.startScheduled = false;
        this.startFlushes();
      });
    });
  }

  /** Starts batches while there are items and room; a finished flush starts the next at once. */
  private startFlushes(): void {
    while (this.queue.length > 0 && this.flushesInFlight < this.maxFlushesInFlight) {
      if (this.flushesInFlight > 0 && this.queue.length < this.minBatchBesideAnother) return;
      const batch = this.takeBatch();
      if (batch.length === 0) return; // every waiting item's key is in flight: its flush starts the next
      const { keyOf } = this;
      const keys = keyOf === undefined ? [] : batch.map((waiter) => keyOf(waiter.item));
      for (const key of keys) this.keysInFlight.add(key);
      this.flushesInFlight++;
      void this.flushBatch(batch).finally(() => {
        for (const key of keys) this.keysInFlight.delete(key);
        this.flushesInFlight--;
        this.startFlushes();
      });
    }
  }

  /** The next batch in submission order, passing over items whose key a flush in flight holds. */
  private takeBatch(): Array<Waiter<Item, Result>> {
    const { keyOf } = this;
    if (keyOf === undefined || this.keysInFlight.size === 0) return this.queue.splice(0, this.maxBatch);
    const batch: Array<Waiter<Item, Result>> = [];
    const waiting: Array<Waiter<Item, Result>> = [];
    for (const waiter of this.queue) {
      if (batch.length < this.maxBatch && !this.keysInFlight.has(keyOf(waiter.item))) batch.push(waiter);
      else waiting.push(waiter);
    }
    this.queue = waiting;
    return batch;
  }

  private async flushBatch(batch: ReadonlyArray<Waiter<Item, Result>>): Promise<void> {
    let outcomes: ReadonlyArray<PromiseSettledResult<Result>>;
    try {
      outcomes = await this.flush(batch.map((waiter) => waiter.item));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    batch.forEach((waiter, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined)
        waiter.reject(new Error(`the flush answered ${outcomes.length} outcomes for ${batch.length} items`));
      else if (outcome.status === 'fulfilled') waiter.resolve(outcome.value);
      else waiter.reject(outcome.reason);
    });
  }
}
