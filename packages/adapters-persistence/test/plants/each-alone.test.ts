import { StorageUnavailableError } from '@plantstore/domain';
import { orEachAlone } from '../../src/plants/each-alone.js';

/** A batch write that refuses, as a database would, any batch holding a `bad` item. */
function refusingBad() {
  const writes: string[][] = [];
  const write = async (batch: readonly string[]) => {
    writes.push([...batch]);
    if (batch.includes('bad')) throw new Error('CHECK constraint failed');
    return batch.map((item) => ({ status: 'fulfilled' as const, value: `wrote ${item}` }));
  };
  return { writes, write };
}

describe('a batch written, or else each item alone', () => {
  it('writes a batch the database takes once, as a whole', async () => {
    const { writes, write } = refusingBad();
    await expect(orEachAlone(write)(['a', 'b'])).resolves.toEqual([
      { status: 'fulfilled', value: 'wrote a' },
      { status: 'fulfilled', value: 'wrote b' },
    ]);
    expect(writes).toEqual([['a', 'b']]);
  });

  it('fails only the item the database refuses; its neighbours are written alone', async () => {
    const { writes, write } = refusingBad();
    const outcomes = await orEachAlone(write)(['a', 'bad', 'c']);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writes).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('fails the whole batch at once in an outage, without waiting for it again item by item', async () => {
    const outage = new StorageUnavailableError(undefined, { reason: 'disk full' });
    let calls = 0;
    const outcomes = await orEachAlone<string, string>(async () => {
      calls++;
      throw outage;
    })(['a', 'b', 'c']);
    expect(outcomes).toEqual(['a', 'b', 'c'].map(() => ({ status: 'rejected', reason: outage })));
    expect(calls).toBe(1);
  });

  it('does not write a lone item twice', async () => {
    const { writes, write } = refusingBad();
    const [outcome] = await orEachAlone(write)(['bad']);
    expect(outcome).toMatchObject({ status: 'rejected', reason: new Error('CHECK constraint failed') });
    expect(writes).toEqual([['bad']]);
  });
});
