import { DEFAULT_MAX_BATCH, plantBatchTuningFor } from '../../src/config/write-path-tuning.js';

describe('the batches of a plant store', () => {
  it('take turns on SQLite, whose one connection writes one batch at a time', () => {
    const tuning = plantBatchTuningFor('sqlite', 10);
    for (const batcher of [tuning.creates, tuning.changes, tuning.lookups]) expect(batcher.maxFlushesInFlight).toBe(1);
    expect(tuning.creates.maxBatch).toBe(DEFAULT_MAX_BATCH);
  });

  it('overlap on PostgreSQL, four at a time, a write batch beside another only from 8 requests', () => {
    const tuning = plantBatchTuningFor('postgres', 10);
    expect(tuning.creates).toEqual({ maxBatch: DEFAULT_MAX_BATCH, maxFlushesInFlight: 4, minBatchBesideAnother: 8 });
    expect(tuning.changes).toEqual(tuning.creates);
    expect(tuning.lookups).toEqual({ maxBatch: 500, maxFlushesInFlight: 4, minBatchBesideAnother: 1 });
  });

  it.each([
    [3, 2],
    [2, 1],
    [1, 1],
  ])('leave a pool of %i at least one connection for the other queries: %i in flight', (poolSize, inFlight) => {
    const tuning = plantBatchTuningFor('postgres', poolSize);
    expect([tuning.creates.maxFlushesInFlight, tuning.lookups.maxFlushesInFlight]).toEqual([inFlight, inFlight]);
  });

  it('never ask a write batch beside another for more requests than a batch holds', () => {
    expect(plantBatchTuningFor('postgres', 10, 2).creates).toEqual({
      maxBatch: 2,
      maxFlushesInFlight: 4,
      minBatchBesideAnother: 2,
    });
  });
});
