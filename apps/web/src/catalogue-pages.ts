import { plantNameKey } from '@plantstore/domain';
import type { ListedPlant, PlantFeedChange } from '@plantstore/client';

/** One page of the catalogue as the page shows it: its plants and its number, from 1. */
export interface CataloguePage {
  readonly plants: readonly ListedPlant[];
  readonly number: number;
}

/** A page as the walk yields it (PlantStoreClient.listPlantPages): its plants, and the feed's cursor taken before it. */
type WalkedPage = ListedPlant[] & { readonly feedCursor?: string | undefined };

/** What a change from the feed did to the pages read: on which page, and to which plant. */
export type PageChange =
  | { readonly page: number; readonly kind: 'changed'; readonly before: ListedPlant; readonly plant: ListedPlant }
  | { readonly page: number; readonly kind: 'added'; readonly plant: ListedPlant }
  | { readonly page: number; readonly kind: 'removed'; readonly plant: ListedPlant; readonly deleted: boolean };

/**
 * The catalogue walked a page at a time, as the API links its pages (`Link rel="next"`, which
 * the client follows), with the pages already read kept for going back: the API links forward
 * only. A walk shows every plant that existed when it began exactly once; a new walk sees
 * what was added since.
 */
export class CataloguePages {
  private readonly pages: ListedPlant[][] = [];
  /** Whether each page came full from the API: then the next page starts after its last id. */
  private readonly cameFull: boolean[] = [];
  private index = -1;
  private ended = false;
  private pendingRead: Promise<boolean> | undefined;
  private failure = false;
  private firstFeedCursor: string | undefined;

  /** `walk` yields the pages in order (PlantStoreClient.listPlantPages), `pageSize` plants each but the last. */
  constructor(
    private readonly walk: AsyncIterator<WalkedPage>,
    private readonly pageSize: number,
  ) {}

  /**
   * The change feed's cursor the API took before the walk's first page: following from it keeps
   * every page read current. Undefined until that page is read (or from an API that sends none).
   */
  get feedCursor(): string | undefined {
    return this.firstFeedCursor;
  }

  get current(): CataloguePage | undefined {
    const plants = this.pages[this.index];
    return plants === undefined ? undefined : { plants, number: this.index + 1 };
  }

  /** A page is being read; next() waits for it. */
  get busy(): boolean {
    return this.pendingRead !== undefined;
  }

  /** A read failed: the walk cannot go on (the client's walk ends with its error), a new one starts over. */
  get failed(): boolean {
    return this.failure;
  }

  get hasPrevious(): boolean {
    return this.index > 0;
  }

  /** Another page may follow: one is read already, or this one is full (the API links a full page to the next). */
  get mayHaveNext(): boolean {
    if (this.index + 1 < this.pages.length) return true;
    return !this.ended && this.pages.length > 0 && this.cameFull[this.index] === true;
  }

  /**
   * Moves to the next page, reading it when it has not been read; the first call reads the
   * first page. Resolves false, staying where it is, when there is no further page with plants
   * (a full page's next may turn out empty). Rejects with the client's error. A call made while
   * a page is being read waits for that page: it does not read another.
   */
  next(): Promise<boolean> {
    if (this.pendingRead !== undefined) return this.pendingRead;
    if (this.index + 1 < this.pages.length) {
      this.index++;
      return Promise.resolve(true);
    }
    if (this.ended) return Promise.resolve(false);
    this.pendingRead = this.read().finally(() => (this.pendingRead = undefined));
    return this.pendingRead;
  }

  private async read(): Promise<boolean> {
    let result: IteratorResult<WalkedPage>;
    try {
      result = await this.walk.next();
    } catch (error) {
      this.failure = true;
      throw error;
    }
    if (result.done !== true && this.pages.length === 0) this.firstFeedCursor = result.value.feedCursor;
    if (result.done === true || (result.value.length === 0 && this.pages.length > 0)) {
      this.ended = true;
      return false;
    }
    this.pages.push([...result.value]);
    this.cameFull.push(result.value.length === this.pageSize);
    this.index++;
    if (result.value.length < this.pageSize) this.ended = true;
    return true;
  }

  previous(): void {
    if (this.hasPrevious) this.index--;
  }

  /**
   * Brings the pages read up to a change from the feed (a plant's state now, `tag` the walk's
   * filter): a plant shown is changed or removed; a new plant (or one that now has the tag) is
   * added to the page whose id range holds it, in id order, but never beyond what was read while
   * the walk goes on (the API will list it on a later page). Undefined when no page read shows it.
   */
  apply(change: PlantFeedChange, tag: string | undefined, nameKey?: string): PageChange | undefined {
    // A name search keeps a plant whose name's key (the domain's plantNameKey) holds the text's.
    const belongs =
      !change.deleted &&
      (tag === undefined || change.tag === tag) &&
      (nameKey === undefined || plantNameKey(change.name).includes(nameKey));
    const plant: ListedPlant | undefined = change.deleted
      ? undefined
      : change.tag === undefined
        ? { id: change.id, name: change.name }
        : { id: change.id, name: change.name, tag: change.tag };
    for (const [index, plants] of this.pages.entries()) {
      const at = plants.findIndex((shown) => shown.id === change.id);
      if (at === -1) continue;
      const before = plants[at]!;
      if (plant === undefined || !belongs) {
        plants.splice(at, 1);
        return { page: index + 1, kind: 'removed', plant: before, deleted: change.deleted };
      }
      if (before.name === plant.name && before.tag === plant.tag) return undefined;
      plants[at] = plant;
      return { page: index + 1, kind: 'changed', before, plant };
    }
    if (plant === undefined || !belongs) return undefined;
    const index = this.pages.findIndex((_, i) => this.holds(i, plant.id));
    if (index === -1) return undefined;
    const plants = this.pages[index]!;
    const at = plants.findIndex((shown) => shown.id > plant.id);
    plants.splice(at === -1 ? plants.length : at, 0, plant);
    return { page: index + 1, kind: 'added', plant };
  }

  /** Whether page `index`'s id range holds `id`: after the last id of the pages before, up to its own last id when the API listed more after it. */
  private holds(index: number, id: bigint): boolean {
    const lastBefore = this.pages.slice(0, index).flat().at(-1)?.id;
    if (lastBefore !== undefined && id <= lastBefore) return false;
    // The last page read holds every id after it once the API has nothing after it.
    if (index === this.pages.length - 1 && (this.ended || !this.cameFull[index])) return true;
    const last = this.pages[index]!.at(-1)?.id;
    return last === undefined || id < last;
  }
}
