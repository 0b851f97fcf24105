/** Writes one batch; answers each item's own outcome, in the batch's order. */
export type FlushBatch<Item, Result> = (batch: readonly Item[]) => Promise<ReadonlyArray<PromiseSettledResult<Result>>>;

interface Waiter<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A group commit: items submitted while a flush is in flight wait and go to the next flush
 * together, so many callers share one write (and one disk flush) while each caller is still
 * answered only after the flush that covers its item, with that item's own outcome.
 *
 * Batches are taken in submission order, at most `maxBatch` items each, and at most
 * `maxFlushesInFlight` of them are written at once: 1 where writes are serial anyway (SQLite's
 * one connection), more where a store commits on several connections in parallel (PostgreSQL's
 * pool), so that a commit's round trip does not idle every other connection. A flush that
 * throws fails every waiter of its batch, and the next batch still runs.
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Array<Waiter<Item, Result>> = [];
  private flushesInFlight = 0;
  private startScheduled = false;

  constructor(
    private readonly flush: FlushBatch<Item, Result>,
    private readonly maxBatch: number,
    private readonly maxFlushesInFlight = 1,
  ) {
    if (!Number.isSafeInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`maxBatch must be a positive integer, not ${maxBatch}`);
    if (!Number.isSafeInteger(maxFlushesInFlight) || maxFlushesInFlight < 1)
      throw new RangeError(`maxFlushesInFlight must be a positive integer, not ${maxFlushesInFlight}`);
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
      const batch = this.queue.splice(0, this.maxBatch);
      this.flushesInFlight++;
      void this.flushBatch(batch).finally(() => {
        this.flushesInFlight--;
        this.startFlushes();
      });
    }
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
