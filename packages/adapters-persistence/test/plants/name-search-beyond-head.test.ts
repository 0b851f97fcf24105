import { SqlPlantRepository } from '@plantstore/adapters-persistence';
import { Plant, PlantId } from '@plantstore/domain';
import { testEngines } from '../engines.js';
import { useFreshStore } from '../support/use-store.js';
import { validNameSearch as search, validPlant } from '../support/valid-inputs.js';

const PLANTS = 12_000;
/** Where the rare name is: near the start, and far beyond the first 10,000 plants a page reads in id order. */
const RARE_IDS = [3n, 10_500n, 11_999n];

const plant = (id: bigint, name: string): Plant => validPlant({ id, name });

/*
 * A store larger than the part of the table a search reads in id order before it turns to its
 * index (PostgreSQL), so that both ways of finding a page are walked, and a tombstone among the
 * matches: every page is exact whichever way it was found.
 */
describe.each(testEngines())('finding names in a store of 12,000 plants on $name', (engine) => {
  const open = useFreshStore(engine);

  beforeAll(async () => {
    const plants = new SqlPlantRepository(open().dataSource);
    const all = Array.from({ length: PLANTS }, (_, i) => {
      const id = BigInt(i + 1);
      if (RARE_IDS.includes(id)) return plant(id, `Fougère n°${id}`);
      return plant(id, `${i % 2 === 0 ? 'Ficus' : 'Aloe'} n°${id}`);
    });
    for (let first = 0; first < all.length; first += 4000)
      await plants.insertAllIfAbsent(all.slice(first, first + 4000), {
        createdByTokenId: undefined,
        createdAt: new Date(),
      });
    expect(
      await plants.retire(PlantId.fromStored('10500'), 1, { retiredAt: new Date(), retiredByTokenId: undefined }),
    ).toBe(true);
  }, 60_000);

  const walk = async (text: string, limit: number): Promise<string[]> => {
    const plants = new SqlPlantRepository(open().dataSource);
    const seen: string[] = [];
    let after: PlantId | undefined;
    for (;;) {
      const page = await plants.listPage({ after, tags: [], name: search(text), limit });
      seen.push(...page.map((p) => p.id.toString()));
      if (page.length < limit) return seen;
      after = page[page.length - 1]!.id;
    }
  };

  it('finds a rare name near the start and far beyond it, and never the deleted plant', async () => {
    expect(await walk('FOUGERE', 2)).toEqual(['3', '11999']);
    expect(await walk('fougere n°11999', 100)).toEqual(['11999']);
  });

  it('pages a common name by the last id, every match once, in order', async () => {
    const ids = await walk('ficus', 1000);
    expect(ids).toHaveLength(PLANTS / 2 - 2);
    expect(ids.slice(0, 3)).toEqual(['1', '5', '7']);
    expect(ids.at(-1)).toBe('11997');
    expect(ids.every((id, i) => i === 0 || BigInt(ids[i - 1]!) < BigInt(id))).toBe(true);
  });

  it('finds a page that starts beyond the plants read in id order', async () => {
    const plants = new SqlPlantRepository(open().dataSource);
    const page = await plants.listPage({ after: PlantId.fromStored('4'), tags: [], name: search('fougère'), limit: 5 });
    expect(page.map((p) => p.toJSON())).toEqual([{ id: '11999', name: 'Fougère n°11999' }]);
  });
});
