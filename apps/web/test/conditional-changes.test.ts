import {
  PlantStoreApiError,
  PlantStoreGoneError,
  PlantStorePreconditionFailedError,
  type Plant,
  type PlantChange,
  type PlantWithEtag,
} from '@plantstore/client';
import { deleteIfUnchanged, saveChange, type PlantCalls } from '../src/conditional-changes.js';

const ID = 9007199254740993n;
const call = { signal: new AbortController().signal, deadline: Date.now() + 60_000 };

/**
 * One plant behind the API as the server keeps it: a version per change, its ETag naming the
 * version, 412 for an If-Match that names another, 410 once deleted. Others can change it
 * "behind the page's back"; `sent` is what the page asked, with the If-Match it sent.
 */
class PlantBehindTheApi implements PlantCalls {
  readonly sent: string[] = [];
  private version = 1;
  private afterNextAnswer: (() => void) | undefined;
  private failure: Error | undefined;

  constructor(private plant: Plant | undefined) {}

  get etag(): string {
    return `"v${this.version}"`;
  }

  changeBehindTheBack(plant: Plant): void {
    this.plant = plant;
    this.version++;
  }

  deleteBehindTheBack(): void {
    this.plant = undefined;
  }

  /** Runs `change` once the next request is answered: someone else's change between two of the page's. */
  thenBehindTheBack(change: () => void): void {
    this.afterNextAnswer = change;
  }

  failNextWith(error: Error): void {
    this.failure = error;
  }

  getPlant(...[id]: Parameters<PlantCalls['getPlant']>): Promise<PlantWithEtag> {
    return this.answer(`GET ${String(id)}`, () => {
      if (this.plant === undefined) throw gone();
      return { plant: this.plant, etag: this.etag };
    });
  }

  updatePlant(...[id, change, options]: Parameters<PlantCalls['updatePlant']>): Promise<PlantWithEtag> {
    return this.answer(`PUT ${String(id)} If-Match: ${options?.ifMatch}`, () => {
      if (this.plant === undefined) throw gone();
      if (options?.ifMatch !== this.etag) throw changed();
      this.changeBehindTheBack(change);
      return { plant: change, etag: this.etag };
    });
  }

  deletePlant(...[id, options]: Parameters<PlantCalls['deletePlant']>): Promise<void> {
    return this.answer(`DELETE ${String(id)} If-Match: ${options?.ifMatch}`, () => {
      if (this.plant === undefined) return;
      if (options?.ifMatch !== this.etag) throw changed();
      this.plant = undefined;
    });
  }

  private async answer<T>(request: string, handle: () => T): Promise<T> {
    this.sent.push(request);
    await Promise.resolve();
    try {
      if (this.failure !== undefined) throw this.failure;
      return handle();
    } finally {
      this.failure = undefined;
      const change = this.afterNextAnswer;
      this.afterNextAnswer = undefined;
      change?.();
    }
  }
}

const gone = () => new PlantStoreGoneError(410, 41001, `The plant with id ${ID} was deleted.`, undefined);
const changed = () =>
  new PlantStorePreconditionFailedError(
    412,
    41201,
    `The plant with id ${ID} is no longer the one If-Match names.`,
    undefined,
  );

describe('an edit saved only over the version the person read', () => {
  const mine: PlantChange = { name: 'Ficus lyrata', tag: 'bright' };

  it('is saved when nobody changed the plant, with the ETag read in If-Match', async () => {
    const store = new PlantBehindTheApi({ name: 'Ficus', tag: 'indoor' });
    const read = await store.getPlant(ID);
    expect(await saveChange(store, ID, mine, read.etag, call)).toEqual({
      outcome: 'saved',
      stored: { plant: mine, etag: '"v2"' },
    });
    expect(store.sent).toEqual([`GET ${ID}`, `PUT ${ID} If-Match: "v1"`]);
  });

  it('is not saved over a change made since; the plant as it is now comes back, with its ETag', async () => {
    const store = new PlantBehindTheApi({ name: 'Ficus', tag: 'indoor' });
    const read = await store.getPlant(ID);
    store.changeBehindTheBack({ name: 'Ficus benjamina' });
    expect(await saveChange(store, ID, mine, read.etag, call)).toEqual({
      outcome: 'changed',
      current: { plant: { name: 'Ficus benjamina' }, etag: '"v2"' },
    });
    expect(store.sent.slice(1)).toEqual([`PUT ${ID} If-Match: "v1"`, `GET ${ID}`]);
  });

  it('is saved over the version read again, when the person chooses so', async () => {
    const store = new PlantBehindTheApi({ name: 'Ficus', tag: 'indoor' });
    const read = await store.getPlant(ID);
    store.changeBehindTheBack({ name: 'Ficus benjamina' });
    const first = await saveChange(store, ID, mine, read.etag, call);
    if (first.outcome !== 'changed') throw new Error('a conflict');
    expect(await saveChange(store, ID, mine, first.current.etag, call)).toEqual({
      outcome: 'saved',
      stored: { plant: mine, etag: '"v3"' },
    });
    expect(await store.getPlant(ID)).toEqual({ plant: mine, etag: '"v3"' });
  });

  it('says the plant was deleted when it went before the save, or between the refusal and the new read', async () => {
    const deletedFirst = new PlantBehindTheApi({ name: 'Ficus' });
    const read = await deletedFirst.getPlant(ID);
    deletedFirst.deleteBehindTheBack();
    expect(await saveChange(deletedFirst, ID, mine, read.etag, call)).toEqual({ outcome: 'deleted' });

    const deletedBetween = new PlantBehindTheApi({ name: 'Ficus' });
    deletedBetween.changeBehindTheBack({ name: 'Ficus benjamina' });
    deletedBetween.thenBehindTheBack(() => deletedBetween.deleteBehindTheBack());
    expect(await saveChange(deletedBetween, ID, mine, read.etag, call)).toEqual({ outcome: 'deleted' });
    expect(deletedBetween.sent).toEqual([`PUT ${ID} If-Match: "v1"`, `GET ${ID}`]);
  });

  it('rejects with any other failure, of the save or of the new read', async () => {
    const refused = new PlantStoreApiError(403, 40301, 'This token lacks the "plants:write" scope.', undefined);
    const store = new PlantBehindTheApi({ name: 'Ficus' });
    store.failNextWith(refused);
    await expect(saveChange(store, ID, mine, store.etag, call)).rejects.toBe(refused);

    const busy = new PlantStoreApiError(503, 50301, 'The plant store is temporarily unavailable.', 1);
    const stale = store.etag;
    store.changeBehindTheBack({ name: 'Ficus benjamina' });
    store.thenBehindTheBack(() => store.failNextWith(busy));
    await expect(saveChange(store, ID, mine, stale, call)).rejects.toBe(busy);
  });
});

describe('a delete of the version the person confirmed', () => {
  it('deletes the plant when nobody changed it, with the ETag read in If-Match', async () => {
    const store = new PlantBehindTheApi({ name: 'Aloe vera' });
    const read = await store.getPlant(ID);
    expect(await deleteIfUnchanged(store, ID, read.etag, call)).toEqual({ outcome: 'deleted' });
    await expect(store.getPlant(ID)).rejects.toBeInstanceOf(PlantStoreGoneError);
    expect(store.sent[1]).toBe(`DELETE ${ID} If-Match: "v1"`);
  });

  it('deletes nothing changed since; the plant as it is now comes back for the person to confirm again', async () => {
    const store = new PlantBehindTheApi({ name: 'Aloe vera' });
    const read = await store.getPlant(ID);
    store.changeBehindTheBack({ name: 'Aloe arborescens', tag: 'succulent' });
    const outcome = await deleteIfUnchanged(store, ID, read.etag, call);
    expect(outcome).toEqual({
      outcome: 'changed',
      current: { plant: { name: 'Aloe arborescens', tag: 'succulent' }, etag: '"v2"' },
    });
    if (outcome.outcome !== 'changed') throw new Error('a conflict');
    expect(await deleteIfUnchanged(store, ID, outcome.current.etag, call)).toEqual({ outcome: 'deleted' });
  });

  it('is deleted when someone else deleted it first, before or after the refusal', async () => {
    const before = new PlantBehindTheApi({ name: 'Aloe vera' });
    const read = await before.getPlant(ID);
    before.deleteBehindTheBack();
    expect(await deleteIfUnchanged(before, ID, read.etag, call)).toEqual({ outcome: 'deleted' });

    const between = new PlantBehindTheApi({ name: 'Aloe vera' });
    between.changeBehindTheBack({ name: 'Aloe arborescens' });
    between.thenBehindTheBack(() => between.deleteBehindTheBack());
    expect(await deleteIfUnchanged(between, ID, read.etag, call)).toEqual({ outcome: 'deleted' });
  });
});
