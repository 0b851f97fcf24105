import { GroupCommit } from '../../src/plants/group-commit.js';

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

describe('GroupCommit', () => {
  it('hands items submitted in one tick to one flush', async () => {
    const fake = new FakeFlush();
    const commit = new GroupCommit(fake.flush, 10);
    const results = ['a', 'b', 'c'].map((item) => commit.submit(item));
    await turn();
    expect(fake.batches).toEqual([['a', 'b', 'c']]);
    fake.succeed();
    await expect(Promise.all(results)).resolves.toEqual(['done a', 'done b', 'done c']);
  });

  it('collects the items that arrive while a flush is in flight into the next batch', async () => {
    const fake = new FakeFlush();
    const commit = new GroupCommit(fake.flush, 10);
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
    const commit = new GroupCommit(fake.flush, 10);
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
    const commit = new GroupCommit(fake.flush, 2);
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
    const commit = new GroupCommit(fake.flush, 10);
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
    const commit = new GroupCommit(fake.flush, 2);
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
    const commit = new GroupCommit(fake.flush, 10);
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
    const commit = new GroupCommit<string, string>(async () => [{ status: 'fulfilled', value: 'only one' }], 10);
    const settled = await Promise.allSettled([commit.submit('a'), commit.submit('b')]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'only one' },
      { status: 'rejected', reason: new Error('the flush answered 1 outcomes for 2 items') },
    ]);
  });

  it('refuses a batch size that could never flush anything', () => {
    expect(() => new GroupCommit(async () => [], 0)).toThrow(
      new RangeError('maxBatch must be a positive integer, not 0'),
    );
  });
});
