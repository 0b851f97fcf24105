import {
  ChangeCursor,
  ChangesQuery,
  FollowChanges,
  Plant,
  PlantId,
  StorageUnavailableError,
  type ChangesQueryInput,
  type FeedPosition,
} from '@plantstore/domain';
import { InMemoryPlantRepository } from '@plantstore/domain/testing';

const provenance = { createdByTokenId: undefined, createdAt: new Date('2026-01-01T00:00:00.000Z') };

function plant(id: string, name: string, tag?: string): Plant {
  const parsed = Plant.parse(tag === undefined ? { id, name } : { id, name, tag });
  if (!parsed.ok) throw new Error('test plant is invalid');
  return parsed.plant;
}

function query(input: ChangesQueryInput): ChangesQuery {
  const parsed = ChangesQuery.parse(input);
  if (!parsed.ok) throw new Error(`expected a valid query, got ${JSON.stringify(parsed.violations)}`);
  return parsed.query;
}

/** A page as a transport would write it: entries as plain data, cursors as texts. */
async function page(store: InMemoryPlantRepository, input: ChangesQueryInput): Promise<unknown> {
  const result = await new FollowChanges(store).execute(query(input));
  if (result.outcome !== 'page') return result;
  return {
    changes: result.changes.map(({ entry, position }) => ({
      entry: entry.deleted
        ? { id: entry.id.toString(), version: entry.version, deleted: true }
        : { ...entry.plant.toJSON(), version: entry.version },
      // The cursor a stream sends after the entry: it must read back as the entry's position.
      at: ChangeCursor.decode(ChangeCursor.encode(position)),
    })),
    next: ChangeCursor.decode(result.next),
  };
}

const at = (commit: bigint, id: bigint): FeedPosition => ({ epoch: 0n, commit, id });

describe('FollowChanges', () => {
  let store: InMemoryPlantRepository;

  beforeEach(async () => {
    store = new InMemoryPlantRepository();
    await store.insertIfAbsent(plant('1', 'Fern', 'shade'), provenance); // commit 1
    await store.insertAllIfAbsent([plant('3', 'Ivy'), plant('2', 'Aloe')], provenance); // commit 2
    await store.replace(plant('1', 'Boston fern'), 1, { changedAt: new Date() }); // commit 3
    await store.retire(PlantId.fromStored('2'), 1, { retiredAt: new Date(), retiredByTokenId: undefined }); // commit 4
  });

  it('tells each plant once at its latest state, in the order of its last change, each with the cursor after it', async () => {
    expect(await page(store, {})).toEqual({
      changes: [
        { entry: { id: '3', name: 'Ivy', version: 1 }, at: at(2n, 3n) },
        { entry: { id: '1', name: 'Boston fern', version: 2 }, at: at(3n, 1n) },
        { entry: { id: '2', version: 2, deleted: true }, at: at(4n, 2n) },
      ],
      next: at(4n, 2n),
    });
  });

  it('pages by limit, and next continues right after the last entry of the page', async () => {
    const first = (await page(store, { limit: '2' })) as { next: FeedPosition };
    expect(first.next).toEqual(at(3n, 1n));
    expect(await page(store, { after: ChangeCursor.encode(first.next), limit: '2' })).toEqual({
      changes: [{ entry: { id: '2', version: 2, deleted: true }, at: at(4n, 2n) }],
      next: at(4n, 2n),
    });
  });

  it('answers an empty page with next at the cursor it was given', async () => {
    const last = ChangeCursor.encode(at(4n, 2n));
    const result = await new FollowChanges(store).execute(query({ after: last }));
    expect(result).toEqual({ outcome: 'page', changes: [], next: last });
  });

  it('answers the origin cursor of an empty store with an empty page', async () => {
    const result = await new FollowChanges(new InMemoryPlantRepository()).execute(
      query({ after: ChangeCursor.origin }),
    );
    expect(result).toEqual({ outcome: 'page', changes: [], next: ChangeCursor.origin });
  });

  it.each([
    ['after the newest change', at(4n, 3n), 'after'],
    ['in a later epoch', { epoch: 1n, commit: 0n, id: 0n }, 'after'],
    ['named as a stream names it', at(99n, 0n), 'Last-Event-ID'],
  ])('refuses a well-formed cursor %s as unknown, naming its parameter', async (_label, position, afterName) => {
    const result = await new FollowChanges(store).execute(query({ after: ChangeCursor.encode(position), afterName }));
    expect(result).toEqual({ outcome: 'unknown-cursor', parameter: afterName });
  });

  it('refuses any cursor but the origin while the store has no plant', async () => {
    const result = await new FollowChanges(new InMemoryPlantRepository()).execute(
      query({ after: ChangeCursor.encode(at(1n, 1n)) }),
    );
    expect(result).toEqual({ outcome: 'unknown-cursor', parameter: 'after' });
  });

  describe('cursorOfNow', () => {
    it('is a cursor the feed accepts, after which comes exactly what changed later', async () => {
      const now = await new FollowChanges(store).cursorOfNow();
      expect(await page(store, { after: now })).toEqual({ changes: [], next: ChangeCursor.decode(now) });
      await store.insertIfAbsent(plant('0', 'Moss'), provenance);
      await store.replace(plant('3', 'English ivy'), 1, { changedAt: new Date() });
      expect(await page(store, { after: now })).toMatchObject({
        changes: [
          { entry: { id: '0', name: 'Moss', version: 1 } },
          { entry: { id: '3', name: 'English ivy', version: 2 } },
        ],
      });
    });

    it('is the origin’s cursor while the store has no plant', async () => {
      expect(await new FollowChanges(new InMemoryPlantRepository()).cursorOfNow()).toBe(ChangeCursor.origin);
    });

    it('throws the store’s StorageUnavailableError as it is', async () => {
      store.goOffline();
      await expect(new FollowChanges(store).cursorOfNow()).rejects.toBeInstanceOf(StorageUnavailableError);
    });
  });

  it('throws the store’s StorageUnavailableError as it is', async () => {
    store.goOffline();
    await expect(new FollowChanges(store).execute(query({}))).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
