import { ChangeCursor, plantNameKey } from '@plantstore/domain';
import { deletePlant, putPlant } from '../support/change-requests.js';
import { describeOnPostgres, testEngines } from '../support/engines.js';
import { FEED_WAIT_MS } from '../../../../test-support/feed-settled.js';
import { FeedCopy, parseExact, readPages } from '../support/feed-copy.js';
import { postPlant } from '../support/plant-requests.js';
import { getWithToken, nextOf } from '../support/read-requests.js';
import { useTestApp, type SuiteApp } from '../support/test-app.js';

interface ListedPlant {
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
}

async function create(t: SuiteApp, id: string, name: string): Promise<void> {
  const res = await postPlant(t.url, t.token, `{"id":${id},"name":${JSON.stringify(name)}}`);
  if (res.status !== 200) throw new Error(`create ${id}: ${res.status} ${res.text}`);
}

/** One page of GET /plants: its plants, its Feed-Cursor, and the next page's path. */
async function listPage(t: SuiteApp, token: string, path: string) {
  const res = await getWithToken(t.url, token, path);
  expect(res.status).toBe(200);
  const cursor = res.headers['feed-cursor'];
  if (cursor === undefined) throw new Error(`GET ${path} answered no Feed-Cursor`);
  return {
    plants: parseExact<ListedPlant[]>(res.text),
    cursor,
    next: nextOf(res.headers['link']),
  };
}

/**
 * The feed read from `cursor` into a copy until `done` holds for it: PostgreSQL serves a
 * commit once no transaction older than it is open in the cluster, which other suites may delay.
 */
async function followUntil(
  t: SuiteApp,
  token: string,
  cursor: string,
  done: (copy: FeedCopy) => boolean,
): Promise<FeedCopy> {
  const deadline = Date.now() + FEED_WAIT_MS;
  for (;;) {
    const copy = new FeedCopy();
    await readPages(t.url, token, copy, cursor);
    if (done(copy) || Date.now() > deadline) return copy;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Live plants of the table, as a list shows them. */
async function liveRows(t: SuiteApp): Promise<Map<string, ListedPlant>> {
  const rows = await t.dataSource.query<Array<{ id: string; name: string | null; tag: string | null }>>(
    'SELECT CAST(id AS TEXT) AS id, name, tag FROM plant',
  );
  return new Map(
    rows
      .filter((row) => row.name !== null)
      .map(({ id, name, tag }) => [id, { id, name: name!, ...(tag === null ? {} : { tag }) }]),
  );
}

/** A copy made from a list, with the feed applied over it: a live entry replaces a plant, a deleted one removes it. */
function listPlusFeed(listed: readonly ListedPlant[], feed: FeedCopy): Map<string, ListedPlant> {
  const copy = new Map(listed.map((plant) => [plant.id, plant]));
  for (const [id, entry] of feed.plants) {
    if ('deleted' in entry) copy.delete(id);
    else copy.set(id, { id, name: entry.name, ...(entry.tag === undefined ? {} : { tag: entry.tag }) });
  }
  return copy;
}

/** A copy as comparable text, by id value, whatever the order of its members. */
function shown(copy: Map<string, ListedPlant>): string {
  const plants = [...copy.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  return JSON.stringify(plants.map(({ id, name, tag }) => [id, name, tag ?? null]));
}

describe.each(testEngines())('GET /plants hands out where to follow the feed from ($name)', (engine) => {
  const t = useTestApp({}, engine);
  let reader: string;

  beforeAll(async () => {
    ({ token: reader } = await t.issueToken({ scopes: ['plants:read'] }));
  });

  it('answers the origin’s cursor while the store never held a plant, and the feed accepts it', async () => {
    const { plants, cursor } = await listPage(t, reader, '/plants');
    expect(plants).toEqual([]);
    expect(cursor).toBe(ChangeCursor.origin);
    const feed = await getWithToken(t.url, reader, `/plants/changes?after=${cursor}`);
    expect(feed.status).toBe(200);
  });

  it('puts a cursor the feed accepts on every page, filtered or not', async () => {
    for (const id of ['1', '2', '3']) await create(t, id, `plant ${id}`);
    for (const path of ['/plants', '/plants?limit=1&after=1', '/plants?tags=none', '/plants?name=plant']) {
      const { cursor } = await listPage(t, reader, path);
      expect(cursor).toMatch(/^[0-9a-z.-]{1,100}$/);
      const feed = await getWithToken(t.url, reader, `/plants/changes?after=${cursor}`);
      expect({ path, status: feed.status }).toEqual({ path, status: 200 });
    }
  });

  it('tells a plant created, renamed or deleted after the list was read in the feed read from the list’s cursor', async () => {
    await create(t, '10', 'renamed later');
    await create(t, '11', 'deleted later');
    const { cursor } = await listPage(t, reader, '/plants');
    await create(t, '9', 'created later');
    expect((await putPlant(t.url, t.token, '10', '{"name":"renamed"}')).status).toBe(200);
    expect((await deletePlant(t.url, t.token, '11')).status).toBe(204);
    const copy = await followUntil(
      t,
      reader,
      cursor,
      (c) => c.plants.has('9') && c.plants.has('10') && c.plants.has('11'),
    );
    expect(Object.fromEntries([...copy.plants].filter(([id]) => ['9', '10', '11'].includes(id)))).toEqual({
      '9': { version: 1, name: 'created later' },
      '10': { version: 2, name: 'renamed' },
      '11': { version: 2, deleted: true },
    });
  });

  it('makes an exact copy from every page of the list and the feed from the first page’s cursor, writes in between', async () => {
    for (let i = 0; i < 6; i++) await create(t, String(100 + i), `walked ${i}`);
    const listed: ListedPlant[] = [];
    const first = await listPage(t, reader, '/plants?limit=4');
    listed.push(...first.plants);
    // Between pages: a page already read changes, a page not read yet loses a plant and gains one.
    expect((await putPlant(t.url, t.token, first.plants[0]!.id, '{"name":"changed after its page"}')).status).toBe(200);
    expect((await deletePlant(t.url, t.token, '105')).status).toBe(204);
    await create(t, '-5', 'before every page');
    for (let next = first.next; next !== undefined;) {
      const page = await listPage(t, reader, next);
      listed.push(...page.plants);
      next = page.next;
    }
    const store = await liveRows(t);
    let copy = new Map<string, ListedPlant>();
    await followUntil(t, reader, first.cursor, (feed) => {
      copy = listPlusFeed(listed, feed);
      return shown(copy) === shown(store);
    });
    expect(shown(copy)).toBe(shown(store));
  });
});

describeOnPostgres('GET /plants’s cursor and a write still open (postgres)', (engine) => {
  const t = useTestApp({}, engine);

  it('lets the feed from the list’s cursor tell a write left open while the list was read, once it commits', async () => {
    await create(t, '1', 'before');
    const writer = t.dataSource.createQueryRunner();
    await writer.startTransaction();
    try {
      // The store's own columns; the feed's position is the writing transaction's id (a default).
      await writer.query(
        `INSERT INTO plant (id, name, name_key, tag, created_by_token_id, created_at)
         VALUES (2, 'slow', $1, NULL, NULL, now())`,
        [plantNameKey('slow')],
      );
      // A later write commits first: a cursor at the newest committed change would pass over the open one.
      await create(t, '3', 'quick');
      const { plants, cursor } = await listPage(t, t.token, '/plants');
      expect(plants.map((plant) => plant.id)).toEqual(['1', '3']);
      await writer.commitTransaction();
      const copy = await followUntil(t, t.token, cursor, (c) => c.plants.has('2'));
      expect(copy.plants.get('2')).toEqual({ version: 1, name: 'slow' });
    } finally {
      if (writer.isTransactionActive) await writer.rollbackTransaction();
      await writer.release();
    }
  });
});
