import type { ListedPlant } from '@plantstore/client';
import { CataloguePages } from '../src/catalogue-pages.js';

const plant = (id: bigint): ListedPlant => ({ id, name: `Plant ${id}` });

/** A walk as listPlantPages yields it, counting the pages read. */
function walk(...pages: ListedPlant[][]): { iterator: AsyncIterator<ListedPlant[]>; reads: () => number } {
  let reads = 0;
  async function* generate(): AsyncGenerator<ListedPlant[]> {
    for (const page of pages) {
      reads++;
      yield page;
    }
  }
  return { iterator: generate(), reads: () => reads };
}

const ids = (pages: CataloguePages) => pages.current?.plants.map((p) => p.id);

describe('the catalogue a page at a time', () => {
  it('reads forward as asked, and goes back over the pages read without reading them again', async () => {
    const source = walk([plant(1n), plant(2n)], [plant(3n), plant(4n)], [plant(5n)]);
    const pages = new CataloguePages(source.iterator, 2);
    expect(pages.current).toBeUndefined();
    expect(await pages.next()).toBe(true);
    expect({
      number: pages.current?.number,
      ids: ids(pages),
      previous: pages.hasPrevious,
      next: pages.mayHaveNext,
    }).toEqual({
      number: 1,
      ids: [1n, 2n],
      previous: false,
      next: true,
    });
    await pages.next();
    await pages.next();
    expect({ number: pages.current?.number, ids: ids(pages), next: pages.mayHaveNext }).toEqual({
      number: 3,
      ids: [5n],
      next: false,
    });
    pages.previous();
    pages.previous();
    expect(ids(pages)).toEqual([1n, 2n]);
    expect(await pages.next()).toBe(true);
    expect(ids(pages)).toEqual([3n, 4n]);
    expect(source.reads()).toBe(3);
  });

  it('stays on a full last page when the page after it is empty', async () => {
    const pages = new CataloguePages(walk([plant(1n), plant(2n)], []).iterator, 2);
    await pages.next();
    expect(pages.mayHaveNext).toBe(true);
    expect(await pages.next()).toBe(false);
    expect({ number: pages.current?.number, next: pages.mayHaveNext }).toEqual({ number: 1, next: false });
  });

  it('shows an empty catalogue as one empty page', async () => {
    const pages = new CataloguePages(walk([]).iterator, 25);
    expect(await pages.next()).toBe(true);
    expect(pages.current).toEqual({ plants: [], number: 1 });
    expect(pages.mayHaveNext).toBe(false);
  });

  it('reads one page for two views asking at once', async () => {
    const source = walk([plant(1n)], [plant(2n)]);
    const pages = new CataloguePages(source.iterator, 1);
    expect(pages.busy).toBe(false);
    const [first, second] = [pages.next(), pages.next()];
    expect(pages.busy).toBe(true);
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect({ number: pages.current?.number, reads: source.reads(), busy: pages.busy }).toEqual({
      number: 1,
      reads: 1,
      busy: false,
    });
  });

  it('says it failed when a read fails, and rejects with the reason', async () => {
    const refused = new Error('refused');
    const failing: AsyncIterator<ListedPlant[]> = { next: () => Promise.reject(refused) };
    const pages = new CataloguePages(failing, 25);
    await expect(pages.next()).rejects.toBe(refused);
    expect(pages.failed).toBe(true);
  });
});
