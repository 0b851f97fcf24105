import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  type FollowChangesOptions,
  type FollowedChanges,
  type ListedPlant,
  type ListedPlantPage,
  type ListPlantsQuery,
  type PlantFeedChange,
} from '@plantstore/client';
import { LiveFeed } from '../src/live-feed.js';

/** The feed as the page follows it, over a stand-in for the client's followChanges. */

const change = (id: bigint, name: string): PlantFeedChange => ({ id, version: 1, deleted: false, name });

/**
 * Each follow takes the next script: batches to yield, then how it ends (an error, or waiting
 * until aborted). A list answers one page with `listCursor` as its feed cursor, or fails when it is an Error.
 */
function client(...scripts: { batches: FollowedChanges[]; ending?: Error }[]) {
  const follows: (string | undefined)[] = [];
  const lists: number[] = [];
  const stub = {
    follows,
    lists,
    listCursor: 'listed' as string | Error,
    listPlantPages(query: ListPlantsQuery = {}): AsyncGenerator<ListedPlantPage> {
      lists.push(query.limit ?? 100);
      const answer = stub.listCursor;
      return (async function* () {
        if (answer instanceof Error) throw answer;
        yield Object.defineProperty([] as ListedPlant[], 'feedCursor', { value: answer }) as ListedPlantPage;
      })();
    },
    followChanges(options: FollowChangesOptions = {}): AsyncGenerator<FollowedChanges, never> {
      follows.push(options.after);
      const script = scripts.shift() ?? { batches: [] };
      return (async function* () {
        for (const batch of script.batches) yield batch;
        if (script.ending !== undefined) throw script.ending;
        await new Promise((_, reject) =>
          options.signal?.addEventListener('abort', () => reject(options.signal!.reason as Error)),
        );
        throw new Error('unreachable');
      })();
    },
  };
  return stub;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A view shown long enough for its follow to settle, then left; resolves when the follow has ended. */
async function followThenLeave(feed: Pick<LiveFeed, 'follow'>): Promise<void> {
  const leaving = new AbortController();
  const following = feed.follow(leaving.signal, () => undefined);
  await settle();
  leaving.abort();
  await following;
}

describe('LiveFeed', () => {
  it('hands each non-empty batch to the view, and the next view resumes from the last cursor', async () => {
    const stub = client(
      {
        batches: [
          { changes: [change(1n, 'Fern')], next: 'c1', caughtUp: false },
          { changes: [], next: 'c1', caughtUp: true },
          { changes: [change(2n, 'Moss')], next: 'c2', caughtUp: true },
        ],
      },
      { batches: [] },
    );
    const feed = new LiveFeed(stub, 1);
    const seen: string[] = [];
    const leaving = new AbortController();
    const following = feed.follow(leaving.signal, (changes) => seen.push(changes.map((c) => c.id).join(',')));
    await settle();
    leaving.abort(new Error('left'));
    await following;
    expect(seen).toEqual(['1', '2']);
    await feed.follow(AbortSignal.abort(), () => undefined);
    const next = new AbortController();
    const again = feed.follow(next.signal, () => undefined);
    await settle();
    next.abort();
    await again;
    expect(stub.follows).toEqual([undefined, 'c2']);
  });

  it('starts the first follow from the cursor of the list read first, never from the feed’s origin', async () => {
    const stub = client({ batches: [] });
    const feed = new LiveFeed(stub, 1);
    feed.startFrom('walk');
    feed.startFrom('later walk');
    await feed.startFromNow(new AbortController().signal);
    await followThenLeave(feed);
    expect(stub.follows).toEqual(['walk']);
    expect(stub.lists).toEqual([]);
  });

  it('takes a one-plant list’s cursor for a view that does not list, once: the next view has one', async () => {
    const stub = client({ batches: [{ changes: [], next: 'c1', caughtUp: true }] });
    const feed = new LiveFeed(stub, 1);
    await feed.startFromNow(new AbortController().signal);
    await feed.startFromNow(new AbortController().signal);
    await followThenLeave(feed);
    expect(stub.lists).toEqual([1]);
    expect(stub.follows).toEqual(['listed']);
  });

  it('follows from the origin when the list for a cursor failed, as the view’s own read will say', async () => {
    const stub = client({ batches: [] });
    stub.listCursor = new PlantStoreDeadlineError('no answer for 30 s', 5, 30_000);
    const feed = new LiveFeed(stub, 1);
    await feed.startFromNow(new AbortController().signal);
    expect(feed.started).toBe(false);
    await followThenLeave(feed);
    expect(stub.follows).toEqual([undefined]);
  });

  it('follows again from its cursor after the client gave up on an outage', async () => {
    const outage = new PlantStoreDeadlineError('no stream for 30 s', 5, 30_000);
    const stub = client(
      { batches: [{ changes: [change(1n, 'Fern')], next: 'c1', caughtUp: true }], ending: outage },
      {
        batches: [],
      },
    );
    await followThenLeave(new LiveFeed(stub, 1));
    expect(stub.follows).toEqual([undefined, 'c1']);
  });

  it('starts from the beginning when the store does not know its cursor (400), and stops for a refused token', async () => {
    const unknownCursor = new PlantStoreApiError(400, 40004, 'after must be a cursor this store handed out', undefined);
    const revoked = new PlantStoreApiError(401, 40102, 'The bearer token is invalid.', undefined);
    const stub = client(
      { batches: [{ changes: [], next: 'c9', caughtUp: true }], ending: unknownCursor },
      { batches: [], ending: revoked },
      { batches: [] },
    );
    await new LiveFeed(stub, 1).follow(new AbortController().signal, () => undefined);
    expect(stub.follows).toEqual([undefined, undefined]);
  });
});
