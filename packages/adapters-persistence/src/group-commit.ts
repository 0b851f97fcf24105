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
 * Flushes run one at a time, in submission order, at most `maxBatch` items each. A flush that
 * throws fails every waiter of its batch, and the next batch still runs.
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Array<Waiter<Item, Result>> = [];
  private draining = false;

  constructor(
    private readonly flush: FlushBatch<Item, Result>,
    private readonly maxBatch: number,
  ) {
    if (!Number.isSafeInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`maxBatch must be a positive integer, not ${maxBatch}`);
  }

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Yield one turn so items submitted in the same tick join this batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.flushBatch(this.queue.splice(0, this.maxBatch));
    } finally {
      this.draining = false;
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
