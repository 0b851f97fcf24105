import { insertFirstOfEachId, settleCreate, type InsertOutcome, type Plant } from '@plantstore/domain';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

type Settled = PromiseSettledResult<InsertOutcome>;

const monstera = validPlant(PlantInputMother.withTag('Araceae', { id: '7' }));
const pothos = validPlant(PlantInputMother.valid({ id: '7', name: 'Pothos' }));
const ficus = validPlant(PlantInputMother.valid({ id: '8', name: 'Ficus' }));

/** A store that records what it was asked to insert and answers from a script. */
function storeAnswering(answer: (plant: Plant) => Settled) {
  const calls: string[][] = [];
  const insertDistinct = async (firsts: readonly Plant[]): Promise<Settled[]> => {
    calls.push(firsts.map((plant) => plant.name.value));
    return firsts.map(answer);
  };
  return { calls, insertDistinct };
}

const insertedAll = (): Settled => ({ status: 'fulfilled', value: { inserted: true } });
const same = (plant: Plant) => plant;

describe('settleCreate', () => {
  it('answers created with the requested plant when its insert stored it', () => {
    expect(settleCreate(monstera, { inserted: true })).toEqual({ outcome: 'created', plant: monstera });
  });

  it('answers replayed with the stored plant when the id holds the same name and tag', () => {
    const stored = validPlant(PlantInputMother.withTag('Araceae', { id: '7' }));
    const result = settleCreate(monstera, { inserted: false, existing: stored });
    expect(result.outcome).toBe('replayed');
    expect(result.plant).toBe(stored);
  });

  it('answers conflict with the stored plant when the id holds another name or tag', () => {
    expect(settleCreate(pothos, { inserted: false, existing: monstera })).toEqual({
      outcome: 'conflict',
      plant: monstera,
    });
  });
});

describe('insertFirstOfEachId', () => {
  it('writes only the first request of each id, and judges the later ones against it', async () => {
    const store = storeAnswering(insertedAll);
    const retry = validPlant(PlantInputMother.withTag('Araceae', { id: '7' }));
    const batch = [monstera, ficus, retry, pothos];

    const inserts = await insertFirstOfEachId(batch, same, store.insertDistinct);

    expect(store.calls).toEqual([['Monstera deliciosa', 'Ficus']]);
    const outcomes = batch.map((plant, i) =>
      settleCreate(plant, (inserts[i] as PromiseFulfilledResult<InsertOutcome>).value),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'replayed', 'conflict']);
    expect(outcomes[3]!.plant).toBe(monstera);
  });

  it('treats one id written two ways ("100" and "1e2") as one id', async () => {
    const store = storeAnswering(insertedAll);
    const plain = validPlant(PlantInputMother.valid({ id: '100' }));
    const exponent = validPlant(PlantInputMother.valid({ id: '1e2' }));

    const inserts = await insertFirstOfEachId([plain, exponent], same, store.insertDistinct);

    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]).toHaveLength(1);
    expect(inserts[1]).toEqual({ status: 'fulfilled', value: { inserted: false, existing: plain } });
  });

  it('gives later requests what the first found when the id was already stored', async () => {
    const stored = validPlant(PlantInputMother.valid({ id: '7', name: 'Stored long ago' }));
    const store = storeAnswering(() => ({ status: 'fulfilled', value: { inserted: false, existing: stored } }));

    const inserts = await insertFirstOfEachId([monstera, pothos], same, store.insertDistinct);

    expect(inserts).toEqual([
      { status: 'fulfilled', value: { inserted: false, existing: stored } },
      { status: 'fulfilled', value: { inserted: false, existing: stored } },
    ]);
  });

  it("fails the later requests of an id with the first one's failure, and no other id", async () => {
    const refused = new Error('row refused');
    const store = storeAnswering((plant) =>
      plant.id.value === 7n
        ? { status: 'rejected', reason: refused }
        : { status: 'fulfilled', value: { inserted: true } },
    );

    const inserts = await insertFirstOfEachId([monstera, ficus, pothos], same, store.insertDistinct);

    expect(inserts).toEqual([
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: { inserted: true } },
      { status: 'rejected', reason: refused },
    ]);
  });

  it('answers an empty batch without asking the store', async () => {
    const store = storeAnswering(insertedAll);
    await expect(insertFirstOfEachId([], same, store.insertDistinct)).resolves.toEqual([]);
    expect(store.calls).toEqual([]);
  });

  it('refuses a store that answers a different number of outcomes than it was given', async () => {
    await expect(insertFirstOfEachId([monstera, ficus], same, async () => [insertedAll()])).rejects.toThrow(
      'the repository answered 1 outcomes for 2 plants',
    );
  });

  it('keeps the request objects it was given, so a caller can map outcomes back to its own records', async () => {
    const requests = [
      { line: 1, plant: monstera },
      { line: 2, plant: monstera },
    ];
    const seen: Array<readonly { line: number }[]> = [];
    await insertFirstOfEachId(
      requests,
      (request) => request.plant,
      async (firsts) => {
        seen.push(firsts);
        return firsts.map(insertedAll);
      },
    );
    expect(seen).toEqual([[requests[0]]]);
    expect(seen[0]![0]).toBe(requests[0]);
  });
});
