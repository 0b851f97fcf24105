import type { ListedPlant, PlantFeedChange } from '@plantstore/client';
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
  it('keeps the feed cursor of its first page, where following keeps every page read current', async () => {
    const withCursor = (page: ListedPlant[], feedCursor: string) =>
      Object.defineProperty(page, 'feedCursor', { value: feedCursor });
    const source = walk(withCursor([plant(1n)], 'first'), withCursor([plant(2n)], 'second'));
    const pages = new CataloguePages(source.iterator, 1);
    expect(pages.feedCursor).toBeUndefined();
    await pages.next();
    await pages.next();
    expect(pages.feedCursor).toBe('first');
  });

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

describe('the pages read, kept up to the change feed', () => {
  const live = (id: bigint, name: string, tag?: string): PlantFeedChange =>
    tag === undefined ? { id, version: 2, deleted: false, name } : { id, version: 2, deleted: false, name, tag };
  const deleted = (id: bigint): PlantFeedChange => ({ id, version: 3, deleted: true });
  /** Two full pages of two read, the walk not at its end. */
  async function twoPagesRead(): Promise<CataloguePages> {
    const pages = new CataloguePages(
      walk([plant(10n), plant(20n)], [plant(30n), plant(40n)], [plant(50n)]).iterator,
      2,
    );
    await pages.next();
    await pages.next();
    return pages;
  }
  const shown = (pages: CataloguePages, number: number) => {
    while ((pages.current?.number ?? 0) > number) pages.previous();
    return pages.current?.plants.map((p) => `${p.id} ${p.name}${p.tag === undefined ? '' : ` #${p.tag}`}`);
  };

  it('renames a plant shown, on whichever page it is', async () => {
    const pages = await twoPagesRead();
    expect(pages.apply(live(20n, 'Fern', 'green'), undefined)).toEqual({
      page: 1,
      kind: 'changed',
      before: plant(20n),
      plant: { id: 20n, name: 'Fern', tag: 'green' },
    });
    expect(shown(pages, 1)).toEqual(['10 Plant 10', '20 Fern #green']);
  });

  it('tells nothing when the change leaves the plant as shown (the page read it already)', async () => {
    const pages = await twoPagesRead();
    expect(pages.apply(live(30n, 'Plant 30'), undefined)).toBeUndefined();
  });

  it('removes a deleted plant from its page', async () => {
    const pages = await twoPagesRead();
    expect(pages.apply(deleted(30n), undefined)).toEqual({
      page: 2,
      kind: 'removed',
      plant: plant(30n),
      deleted: true,
    });
    expect(shown(pages, 2)).toEqual(['40 Plant 40']);
    expect(pages.apply(deleted(99n), undefined)).toBeUndefined();
  });

  it('adds a new plant to the page whose id range holds it, in id order', async () => {
    const pages = await twoPagesRead();
    expect(pages.apply(live(15n, 'Moss'), undefined)).toEqual({
      page: 1,
      kind: 'added',
      plant: { id: 15n, name: 'Moss' },
    });
    expect(pages.apply(live(25n, 'Ivy'), undefined)).toMatchObject({ page: 2, kind: 'added' });
    expect(pages.apply(live(-5n, 'Aloe'), undefined)).toMatchObject({ page: 1, kind: 'added' });
    expect(shown(pages, 2)).toEqual(['25 Ivy', '30 Plant 30', '40 Plant 40']);
    expect(shown(pages, 1)).toEqual(['-5 Aloe', '10 Plant 10', '15 Moss', '20 Plant 20']);
  });

  it('adds nothing past the last page read while the API lists more after it, and anything once the walk has ended', async () => {
    const pages = await twoPagesRead();
    expect(pages.apply(live(45n, 'Cactus'), undefined)).toBeUndefined();
    expect(pages.mayHaveNext).toBe(true);
    await pages.next();
    expect(pages.apply(live(45n, 'Cactus'), undefined)).toMatchObject({ page: 3, kind: 'added' });
    expect(pages.apply(live(60n, 'Pilea'), undefined)).toMatchObject({ page: 3, kind: 'added' });
    expect(shown(pages, 3)).toEqual(['45 Cactus', '50 Plant 50', '60 Pilea']);
    const ended = new CataloguePages(walk([plant(1n)]).iterator, 2);
    await ended.next();
    expect(ended.apply(live(7n, 'Cactus'), undefined)).toMatchObject({ page: 1, kind: 'added' });
    expect(ended.mayHaveNext).toBe(false);
  });

  it('adds the first plant to an empty catalogue', async () => {
    const pages = new CataloguePages(walk([]).iterator, 25);
    await pages.next();
    expect(pages.apply(live(1n, 'Fern'), undefined)).toMatchObject({ page: 1, kind: 'added' });
    expect(pages.current?.plants).toEqual([{ id: 1n, name: 'Fern' }]);
  });

  it('under a tag filter, removes a plant whose tag changed away and adds one that now has the tag', async () => {
    const tagged = (id: bigint): ListedPlant => ({ id, name: `Plant ${id}`, tag: 'fern' });
    const pages = new CataloguePages(walk([tagged(1n), tagged(5n)]).iterator, 25);
    await pages.next();
    expect(pages.apply(live(5n, 'Plant 5', 'moss'), 'fern')).toEqual({
      page: 1,
      kind: 'removed',
      plant: tagged(5n),
      deleted: false,
    });
    expect(pages.apply(live(3n, 'Plant 3', 'fern'), 'fern')).toMatchObject({ page: 1, kind: 'added' });
    expect(pages.apply(live(4n, 'Plant 4', 'moss'), 'fern')).toBeUndefined();
    expect(pages.current?.plants.map((p) => p.id)).toEqual([1n, 3n]);
  });
});
