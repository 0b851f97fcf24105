import type { ListedPlant } from '@plantstore/client';

/** One page of the catalogue as the page shows it: its plants and its number, from 1. */
export interface CataloguePage {
  readonly plants: readonly ListedPlant[];
  readonly number: number;
}

/**
 * The catalogue walked a page at a time, as the API links its pages (`Link rel="next"`, which
 * the client follows), with the pages already read kept for going back: the API links forward
 * only. A walk shows every plant that existed when it began exactly once; a new walk sees
 * what was added since.
 */
export class CataloguePages {
  private readonly pages: (readonly ListedPlant[])[] = [];
  private index = -1;
  private ended = false;
  private pendingRead: Promise<boolean> | undefined;
  private failure = false;

  /** `walk` yields the pages in order (PlantStoreClient.listPlantPages), `pageSize` plants each but the last. */
  constructor(
    private readonly walk: AsyncIterator<ListedPlant[]>,
    private readonly pageSize: number,
  ) {}

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
    return !this.ended && this.pages.length > 0 && this.pages[this.index]!.length === this.pageSize;
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
    let result: IteratorResult<ListedPlant[]>;
    try {
      result = await this.walk.next();
    } catch (error) {
      this.failure = true;
      throw error;
    }
    if (result.done === true || (result.value.length === 0 && this.pages.length > 0)) {
      this.ended = true;
      return false;
    }
    this.pages.push(result.value);
    this.index++;
    if (result.value.length < this.pageSize) this.ended = true;
    return true;
  }

  previous(): void {
    if (this.hasPrevious) this.index--;
  }
}
