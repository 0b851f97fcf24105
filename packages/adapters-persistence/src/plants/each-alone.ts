import { StorageUnavailableError } from '@plantstore/domain';
import type { FlushBatch } from './batcher.js';
import { rejected } from './plant-rows.js';

/**
 * A batch's write for items of different requests: a row the database refuses (or a deadlock
 * between instances) must not fail its neighbours, so when the batch fails for anything but an
 * outage, each item is written again alone and only the refused one fails. An outage fails the
 * whole batch at once: writing each alone would only wait for it again per item.
 */
export function orEachAlone<Item, Result>(write: FlushBatch<Item, Result>): FlushBatch<Item, Result> {
  return async (batch) => {
    try {
      return await write(batch);
    } catch (error) {
      if (batch.length === 1 || error instanceof StorageUnavailableError) return batch.map(() => rejected(error));
      const outcomes: Array<PromiseSettledResult<Result>> = [];
      for (const item of batch) outcomes.push(...(await write([item]).catch((e: unknown) => [rejected(e)])));
      return outcomes;
    }
  };
}
