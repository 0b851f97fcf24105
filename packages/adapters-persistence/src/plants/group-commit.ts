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
 * Batches are taken in submission order, at most `maxBatch` items each, one flush at a time:
 * the earlier of two writes of one key always commits first, and the items that arrive during
 * a flush make the next batch larger instead of starting a statement of their own (flushes in
 * parallel on PostgreSQL's pool cost CPU per create and gained no throughput:
 * docs/decisions.md#performance). A flush that throws fails every waiter of its batch, and the
 * next batch still runs.
 */
export class GroupCommit<Item, Result> {
  private queue: Array<Waiter<Item, Result>> = [];
  private flushing = false;
  private startScheduled = false;

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
      if (this.startScheduled || this.flushing) return;
      this.startScheduled = true;
      // Yield one turn so items submitted in the same tick join this batch.
      setImmediate(() => {
        this.startScheduled = false;
        this.startFlush();
      });
    });
  }

  /** Flushes the next batch, if any; a finished flush starts the next at once. */
  private startFlush(): void {
    if (this.queue.length === 0 || this.flushing) return;
    const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
    this.queue = this.queue.length <= this.maxBatch ? [] : this.queue.slice(this.maxBatch);
    this.flushing = true;
    void this.flushBatch(batch).finally(() => {
      this.flushing = false;
      this.startFlush();
    });
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
