import { Batcher } from '../../src/plants/batcher.js';

/** A flush under the test's control: it records each batch and waits until the test settles it. */
class FakeFlush {
  readonly batches: string[][] = [];
  private readonly pending: Array<{
    batch: readonly string[];
    resolve: (outcomes: Array<PromiseSettledResult<string>>) => void;
    reject: (error: unknown) => void;
  }> = [];

  readonly flush = (batch: readonly string[]): Promise<Array<PromiseSettledResult<string>>> => {
    this.batches.push([...batch]);
    return new Promise((resolve, reject) => this.pending.push({ batch: [...batch], resolve, reject }));
  };

  /** Answers the oldest unanswered batch: each item `x` becomes `done x`, or fails when `fails(x)`. */
  succeed(fails: (item: string) => boolean = () => false): void {
    FakeFlush.answer(this.pending.shift()!, fails);
  }

  /** Answers the newest unanswered batch, before older ones: flushes in parallel finish in any order. */
  succeedNewest(): void {
    FakeFlush.answer(this.pending.pop()!, () => false);
  }

  fail(error: Error): void {
    this.pending.shift()!.reject(error);
  }

  private static answer({ batch, resolve }: FakeFlush['pending'][number], fails: (item: string) => boolean): void {
    resolve(
      batch.map((item) =>
        fails(item)
          ? { status: 'rejected', reason: new Error(`refused ${item}`) }
          : { status: 'fulfilled', value: `done ${item}` },
      ),
    );
  }
}

/** Lets setImmediate callbacks and the promise jobs they start run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Where each promise stands, without waiting for it. */
function watch<T>(promises: Array<Promise<T>>): Array<{ state: string; value?: T; reason?: unknown }> {
  return promises.map((promise) => {
    const entry: { state: string; value?: T; reason?: unknown } = { state: 'pending' };
    promise.then(
      (value) => Object.assign(entry, { state: 'fulfilled', value }),
      (reason: unknown) => Object.assign(entry, { state: 'rejected', reason }),
    );
    return entry;
  });
}

describe('Batcher', () => {
  it('hands items submitted in one tick to one flush', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10 });
    const results = ['a', 'b', 'c'].map((item) => commit.submit(item));
    await turn();
    expect(fake.batches).toEqual([['a', 'b', 'c']]);
    fake.succeed();
    await expect(Promise.all(results)).resolves.toEqual(['done a', 'done b', 'done c']);
  });

  it('collects the items that arrive while a flush is in flight into the next batch', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10 });
    const first = watch([commit.submit('a')]);
    await turn();
    const later = watch(['b', 'c', 'd'].map((item) => commit.submit(item)));
    await turn();
    expect(fake.batches).toEqual([['a']]);

    fake.succeed();
    await turn();
    expect(first[0]).toEqual({ state: 'fulfilled', value: 'done a' });
    expect(later.map((w) => w.state)).toEqual(['pending', 'pending', 'pending']);
    expect(fake.batches).toEqual([['a'], ['b', 'c', 'd']]);

    fake.succeed();
    await turn();
    expect(later.map((w) => w.value)).toEqual(['done b', 'done c', 'done d']);
  });

  it('answers a caller only after the flush covering its item has finished', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10 });
    const [watched] = watch([commit.submit('a')]);
    await turn();
    await turn();
    expect(watched).toEqual({ state: 'pending' });
    fake.succeed();
    await turn();
    expect(watched).toEqual({ state: 'fulfilled', value: 'done a' });
  });

  it('flushes at most maxBatch items at a time, in submission order', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 2 });
    const results = ['a', 'b', 'c', 'd', 'e'].map((item) => commit.submit(item));
    for (let i = 0; i < 3; i++) {
      await turn();
      fake.succeed();
    }
    await expect(Promise.all(results)).resolves.toEqual(['done a', 'done b', 'done c', 'done d', 'done e']);
    expect(fake.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('gives each caller its own outcome: one refused item fails alone', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10 });
    const results = ['a', 'b', 'c'].map((item) => commit.submit(item));
    await turn();
    fake.succeed((item) => item === 'b');
    const settled = await Promise.allSettled(results);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'done a' },
      { status: 'rejected', reason: new Error('refused b') },
      { status: 'fulfilled', value: 'done c' },
    ]);
  });

  it('fails every waiter of a batch whose flush throws, and still runs the next batch', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 2 });
    const settling = Promise.allSettled(['a', 'b', 'c'].map((item) => commit.submit(item)));
    await turn();
    const outage = new Error('disk gone');
    fake.fail(outage);
    await turn();
    fake.succeed();
    expect(await settling).toEqual([
      { status: 'rejected', reason: outage },
      { status: 'rejected', reason: outage },
      { status: 'fulfilled', value: 'done c' },
    ]);
    expect(fake.batches).toEqual([['a', 'b'], ['c']]);
  });

  it('starts again for items submitted after the queue ran dry', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10 });
    const first = commit.submit('a');
    await turn();
    fake.succeed();
    await expect(first).resolves.toBe('done a');
    const second = commit.submit('b');
    await turn();
    fake.succeed();
    await expect(second).resolves.toBe('done b');
    expect(fake.batches).toEqual([['a'], ['b']]);
  });

  it('fails a caller whose item the flush left without an outcome', async () => {
    const commit = new Batcher<string, string>(async () => [{ status: 'fulfilled', value: 'only one' }], {
      maxBatch: 10,
    });
    const settled = await Promise.allSettled([commit.submit('a'), commit.submit('b')]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'only one' },
      { status: 'rejected', reason: new Error('the flush answered 1 outcomes for 2 items') },
    ]);
  });

  it('with room for two flushes, writes a second batch while the first is in flight, never a third', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 2, maxFlushesInFlight: 2 });
    const results = watch(['a', 'b', 'c', 'd', 'e'].map((item) => commit.submit(item)));
    await turn();
    expect(fake.batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    fake.succeedNewest();
    await turn();
    // The second batch's callers are answered though the first batch is still in flight.
    expect(results.map((r) => r.state)).toEqual(['pending', 'pending', 'fulfilled', 'fulfilled', 'pending']);
    expect(fake.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    fake.succeedNewest();
    fake.succeed();
    await turn();
    expect(results.map((r) => r.value)).toEqual(['done a', 'done b', 'done c', 'done d', 'done e']);
  });

  it('starts a flush beside another only once minBatchBesideAnother items wait', async () => {
    const fake = new FakeFlush();
    const commit = new Batcher(fake.flush, { maxBatch: 10, maxFlushesInFlight: 2, minBatchBesideAnother: 3 });
    const results = watch([commit.submit('a')]);
    await turn();
    results.push(...watch(['b', 'c'].map((item) => commit.submit(item))));
    await turn();
    // Two waiting items are not worth a flush of their own while 'a' is in flight.
    expect(fake.batches).toEqual([['a']]);
    results.push(...watch([commit.submit('d')]));
    await turn();
    expect(fake.batches).toEqual([['a'], ['b', 'c', 'd']]);
    results.push(...watch([commit.submit('e')]));
    fake.succeed();
    await turn();
    expect(fake.batches).toHaveLength(2); // 'e' alone waits while ['b', 'c', 'd'] is in flight
    fake.succeed();
    await turn();
    // With no flush in flight any more, a single waiting item goes at once.
    expect(fake.batches).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    fake.succeed();
    await turn();
    expect(results.map((r) => r.value)).toEqual(['done a', 'done b', 'done c', 'done d', 'done e']);
  });

  describe('with a key per item', () => {
    const firstLetter = (item: string) => item[0]!;

    it('never writes one key in two flushes at once: the later item waits for the flush holding its key', async () => {
      const fake = new FakeFlush();
      const commit = new Batcher(fake.flush, { maxBatch: 2, maxFlushesInFlight: 2, keyOf: firstLetter });
      const results = watch(['a1', 'b1', 'a2', 'c1'].map((item) => commit.submit(item)));
      await turn();
      // a2 is passed over while a1's flush is in flight; c1, of a free key, is written beside it.
      expect(fake.batches).toEqual([['a1', 'b1'], ['c1']]);
      fake.succeedNewest();
      await turn();
      expect(fake.batches).toHaveLength(2);
      fake.succeed();
      await turn();
      expect(fake.batches).toEqual([['a1', 'b1'], ['c1'], ['a2']]);
      fake.succeed();
      await turn();
      expect(results.map((r) => r.value)).toEqual(['done a1', 'done b1', 'done a2', 'done c1']);
    });

    it('keeps the items of one key in submission order while they wait', async () => {
      const fake = new FakeFlush();
      const commit = new Batcher(fake.flush, { maxBatch: 10, maxFlushesInFlight: 2, keyOf: firstLetter });
      const first = commit.submit('a1');
      await turn();
      const later = ['a2', 'b1', 'a3'].map((item) => commit.submit(item));
      await turn();
      expect(fake.batches).toEqual([['a1'], ['b1']]);
      fake.succeed();
      await turn();
      expect(fake.batches).toEqual([['a1'], ['b1'], ['a2', 'a3']]);
      fake.succeed();
      fake.succeed();
      await expect(Promise.all([first, ...later])).resolves.toEqual(['done a1', 'done a2', 'done b1', 'done a3']);
    });

    it('frees a key when its flush fails', async () => {
      const fake = new FakeFlush();
      const commit = new Batcher(fake.flush, { maxBatch: 10, maxFlushesInFlight: 2, keyOf: firstLetter });
      const first = commit.submit('a1').catch((error: Error) => error.message);
      await turn();
      const second = commit.submit('a2');
      await turn();
      expect(fake.batches).toEqual([['a1']]);
      fake.fail(new Error('disk gone'));
      await turn();
      expect(fake.batches).toEqual([['a1'], ['a2']]);
      fake.succeed();
      await expect(Promise.all([first, second])).resolves.toEqual(['disk gone', 'done a2']);
    });
  });

  it('refuses a number of flushes in flight that could never flush anything', () => {
    expect(() => new Batcher(async () => [], { maxBatch: 10, maxFlushesInFlight: 0 })).toThrow(
      'maxFlushesInFlight must be a positive integer, not 0',
    );
    expect(() => new Batcher(async () => [], { maxBatch: 10, minBatchBesideAnother: 1.5 })).toThrow(
      'minBatchBesideAnother must be a positive integer, not 1.5',
    );
  });

  it('refuses a batch size that could never flush anything', () => {
    expect(() => new Batcher(async () => [], { maxBatch: 0 })).toThrow(
      new RangeError('maxBatch must be a positive integer, not 0'),
    );
  });
});
