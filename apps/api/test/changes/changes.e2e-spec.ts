import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlPlantFeed } from '@plantstore/adapters-persistence';
import { ChangeCursor } from '@plantstore/domain';
import { runCli } from '../../../../test-support/built-cli.js';
import { openEventStream, type EventStreamReader } from '../../../../test-support/event-stream-reader.js';
import { FEED_WAIT_MS, feedSettled } from '../../../../test-support/feed-settled.js';
import { deletePlant, putPlant } from '../support/change-requests.js';
import { testEngines } from '../support/engines.js';
import { copyOfTable, FeedCopy, parseExact, PLANT_TABLE_QUERY, readPages } from '../support/feed-copy.js';
import { postPlant } from '../support/plant-requests.js';
import { getWithToken } from '../support/read-requests.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';

const MAX = '9223372036854775807';
const REVOCATION_BOUND_MS = 5_000;
const invalid = (detail: string) => ({ error: 40004, message: `The request parameters are invalid: ${detail}.` });
const CURSOR_RULE = (name: string) =>
  `${name} must be a cursor this store handed out (an opaque text of at most 100 characters, unaltered)`;

async function create(t: { url: string; token: string }, id: string, name: string, tag?: string): Promise<void> {
  const body = JSON.stringify({ name, ...(tag === undefined ? {} : { tag }) }).replace('{', `{"id":${id},`);
  const res = await postPlant(t.url, t.token, body);
  if (res.status !== 200) throw new Error(`create ${id}: ${res.status} ${res.text}`);
}

interface Page {
  readonly changes: Array<{ id: string; version: number; name?: string; tag?: string; deleted?: true }>;
  readonly next: string;
}

describe.each(testEngines())('GET /plants/changes ($name)', (engine) => {
  const t = useTestApp({ TOKEN_CACHE_TTL_MS: '4000' }, engine);
  let reader: string;
  const followers: EventStreamReader[] = [];

  beforeAll(async () => {
    ({ token: reader } = await t.issueToken({ scopes: ['plants:read'] }));
  });

  afterEach(() => {
    for (const follower of followers.splice(0)) follower.close();
  });

  /** A page read once every committed change is servable: what the test wrote is in it. */
  async function page(query = ''): Promise<Page> {
    await feedSettled(new SqlPlantFeed(t.dataSource));
    const res = await getWithToken(t.url, reader, `/plants/changes${query}`);
    expect(res.status).toBe(200);
    return parseExact<Page>(res.text);
  }

  /** The cursor at the feed's end now: where a follower that wants only what comes next starts. */
  async function endOfFeed(): Promise<string> {
    let cursor = '';
    for (;;) {
      const { changes, next } = await page(`?limit=1000${cursor}`);
      if (changes.length === 0) return next;
      cursor = `&after=${next}`;
    }
  }

  async function follow(query = '', headers: Record<string, string> = {}, token = reader) {
    const opened = await openEventStream(`${t.url}/plants/changes${query}`, {
      authorization: `Bearer ${token}`,
      ...headers,
    });
    followers.push(opened);
    return opened;
  }

  describe('as JSON pages', () => {
    it('tells creates, changes and deletions, each plant once at its latest state with its version, ids exact', async () => {
      const start = await endOfFeed();
      await create(t, MAX, 'max', 'edge');
      await create(t, '11', 'Fern');
      expect((await putPlant(t.url, t.token, MAX, '{"name":"max again"}')).status).toBe(200);
      expect((await deletePlant(t.url, t.token, '11')).status).toBe(204);
      await feedSettled(new SqlPlantFeed(t.dataSource));
      const res = await getWithToken(t.url, reader, `/plants/changes?after=${start}`);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const { next } = JSON.parse(res.text) as { next: string };
      expect(res.text).toBe(
        `{"changes":[{"id":${MAX},"version":2,"name":"max again"},{"id":11,"version":2,"deleted":true}],"next":"${next}"}`,
      );
      expect(await page(`?after=${next}`)).toEqual({ changes: [], next });
    });

    it('pages by limit: following next reads every change once, and the copy equals the table', async () => {
      for (let i = 0; i < 7; i++) await create(t, String(100 + i), `page ${i}`, i % 2 === 0 ? 'even' : undefined);
      const ids: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const { changes, next } = await page(`?limit=3${cursor === undefined ? '' : `&after=${cursor}`}`);
        expect(changes.length).toBeLessThanOrEqual(3);
        ids.push(...changes.map((change) => change.id));
        cursor = next;
        if (changes.length === 0) break;
      }
      expect(new Set(ids).size).toBe(ids.length);
      const copy = new FeedCopy();
      await readPages(t.url, reader, copy);
      expect(copy.wentBack).toEqual([]);
      expect(copy.plants).toEqual(copyOfTable(await t.dataSource.query(PLANT_TABLE_QUERY)));
    });

    it.each([
      [
        'an unknown parameter',
        '?since=1',
        invalid('since is not a query parameter of this operation (known: after, limit)'),
      ],
      [
        'a repeated after',
        `?after=${ChangeCursor.origin}&after=${ChangeCursor.origin}`,
        invalid('after must be given at most once'),
      ],
      ['a repeated limit', '?limit=5&limit=5', invalid('limit must be given at most once')],
      ['a malformed cursor', '?after=12', invalid(CURSOR_RULE('after'))],
      [
        'an altered cursor',
        `?after=${ChangeCursor.encode({ epoch: 0n, commit: 1n, id: 2n }).replace(/.$/, '0')}`,
        invalid(CURSOR_RULE('after')),
      ],
      [
        'a limit of 0',
        '?limit=0',
        invalid('limit must be a whole number from 1 to 1000 in canonical decimal form (no sign, no leading zero)'),
      ],
      [
        'a limit of 1001',
        '?limit=1001',
        invalid('limit must be a whole number from 1 to 1000 in canonical decimal form (no sign, no leading zero)'),
      ],
    ])('refuses %s with 400 40004 naming it', async (_case, query, body) => {
      const res = await getWithToken(t.url, reader, `/plants/changes${query}`);
      expect([res.status, res.body]).toEqual([400, body]);
    });

    it('accepts the cursor after a batch whose ids cross a power of ten (one import, one commit)', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'plantstore-feed-')), 'plants.ndjson');
      writeFileSync(
        file,
        Array.from({ length: 1000 }, (_, i) => `{"id":${5000 + i * 5},"name":"batch ${i}"}\n`).join(''),
      );
      const start = await endOfFeed();
      const imported = await runCli(['plants', 'import', file], { DATABASE_URL: t.database.url });
      expect(imported.code).toBe(0);
      const all = await page(`?after=${start}&limit=1000`);
      expect(all.changes.map((change) => change.id)).toEqual(
        Array.from({ length: 1000 }, (_, i) => String(5000 + i * 5)),
      );
      // The last id (9995) and the first (5000) differ in no digit count; the next import's do (10000 and up).
      writeFileSync(file, Array.from({ length: 10 }, (_, i) => `{"id":${9996 + i},"name":"across ${i}"}\n`).join(''));
      expect((await runCli(['plants', 'import', file], { DATABASE_URL: t.database.url })).code).toBe(0);
      const across = await page(`?after=${all.next}`);
      expect(across.changes.map((change) => change.id)).toEqual(Array.from({ length: 10 }, (_, i) => String(9996 + i)));
      expect(await page(`?after=${across.next}`)).toEqual({ changes: [], next: across.next });
    });

    it('refuses a cursor beyond the newest change: this store cannot have issued it', async () => {
      const beyond = ChangeCursor.encode({ epoch: 0n, commit: 10n ** 15n, id: 1n });
      const res = await getWithToken(t.url, reader, `/plants/changes?after=${beyond}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 40004,
        message: expect.stringContaining('after must be a cursor') as string,
      });
    });

    it('answers 401 without a token, 403 without plants:read, 405 with Allow: GET, HEAD to other methods', async () => {
      expect((await getWithToken(t.url, undefined, '/plants/changes')).status).toBe(401);
      const { token: writer } = await t.issueToken({ scopes: ['plants:write'] });
      expect((await getWithToken(t.url, writer, '/plants/changes')).body).toMatchObject({ error: 40301 });
      const put = await putPlant(t.url, t.token, 'changes', '{"name":"x"}');
      expect([put.status, put.headers['allow'], put.body.error]).toEqual([405, 'GET, HEAD', 40501]);
      const del = await deletePlant(t.url, t.token, 'changes');
      expect([del.status, del.headers['allow']]).toEqual([405, 'GET, HEAD']);
    });
  });

  describe('as Server-Sent Events', () => {
    it('sends the changes after the cursor, then a change as it commits; each id resumes the JSON feed', async () => {
      const start = await endOfFeed();
      await create(t, '201', 'Ivy');
      const follower = await follow(`?after=${start}`);
      expect(follower.status).toBe(200);
      expect(follower.headers['content-type']).toBe('text/event-stream');
      expect(follower.headers['cache-control']).toBe('no-cache');
      await follower.untilEvents(1, FEED_WAIT_MS);
      await create(t, '202', 'Moss', 'green');
      await follower.untilEvents(2, FEED_WAIT_MS);
      expect(follower.events.map(({ event, data }) => [event, data])).toEqual([
        ['change', '{"id":201,"version":1,"name":"Ivy"}'],
        ['change', '{"id":202,"version":1,"name":"Moss","tag":"green"}'],
      ]);
      expect(await page(`?after=${follower.events[1]!.id}`)).toEqual({ changes: [], next: follower.events[1]!.id });
    });

    it('resumes with Last-Event-ID (which wins over after): nothing missed, nothing twice', async () => {
      const start = await endOfFeed();
      for (let i = 0; i < 5; i++) await create(t, String(300 + i), `resume ${i}`);
      const first = await follow(`?after=${start}`);
      await first.untilEvents(5, FEED_WAIT_MS);
      first.close();
      await create(t, '305', 'resume 5');
      const resumed = await follow(`?after=${start}`, { 'last-event-id': first.events[2]!.id! });
      await resumed.untilEvents(3, FEED_WAIT_MS);
      const ids = [...first.events.slice(0, 3), ...resumed.events].map(
        ({ data }) => parseExact<{ id: string }>(data).id,
      );
      expect(ids).toEqual(['300', '301', '302', '303', '304', '305']);
      const refused = await getWithToken(t.url, reader, '/plants/changes', {
        accept: 'text/event-stream',
        'last-event-id': 'forged',
      });
      expect([refused.status, refused.body]).toEqual([400, invalid(CURSOR_RULE('Last-Event-ID'))]);
    });

    it('ends the stream within 5 s of its token’s revocation', async () => {
      const issued = await t.issueToken({ scopes: ['plants:read'] });
      const follower = await follow('', {}, issued.token);
      expect(follower.status).toBe(200);
      await t.revokeToken(issued.id);
      const revokedAt = performance.now();
      await follower.untilEnded(REVOCATION_BOUND_MS + 2_000);
      const endedAfterMs = performance.now() - revokedAt;
      expect(endedAfterMs).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
    });
  });
});

describe.each(testEngines())('change stream limits ($name)', (engine) => {
  let t: TestApp;
  const followers: EventStreamReader[] = [];

  afterEach(async () => {
    for (const follower of followers.splice(0)) follower.close();
    await t.close();
  });

  async function follow(token: string): Promise<EventStreamReader> {
    const opened = await openEventStream(`${t.url}/plants/changes`, { authorization: `Bearer ${token}` });
    followers.push(opened);
    return opened;
  }

  it('opens at most MAX_CHANGE_STREAMS: the next is 503 50301 with Retry-After, while pages are served', async () => {
    t = await startTestApp({ MAX_CHANGE_STREAMS: '2' }, engine);
    const { token } = await t.issueToken({ scopes: ['plants:read'] });
    expect((await follow(token)).status).toBe(200);
    expect((await follow(token)).status).toBe(200);
    const refused = await getWithToken(t.url, token, '/plants/changes', { accept: 'text/event-stream' });
    expect([refused.status, refused.headers['retry-after'], refused.body.error]).toEqual([503, '5', 50301]);
    expect((await getWithToken(t.url, token, '/plants/changes')).status).toBe(200);
  });

  it('holds one of its client’s MAX_REQUESTS_IN_FLIGHT_PER_CLIENT places: past it 429 42901, other clients served', async () => {
    t = await startTestApp({ MAX_REQUESTS_IN_FLIGHT: '2', MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: '1' }, engine);
    const { token } = await t.issueToken({ scopes: ['plants:read'] });
    const { token: other } = await t.issueToken({ scopes: ['plants:read'] });
    expect((await follow(token)).status).toBe(200);
    const refused = await getWithToken(t.url, token, '/plants/changes');
    expect([refused.status, refused.body.error]).toEqual([429, 42901]);
    expect((await follow(other)).status).toBe(200);
    // Two streams open, MAX_REQUESTS_IN_FLIGHT 2: requests are still served, streams hold no shared place.
    const { token: third } = await t.issueToken({ scopes: ['plants:read'] });
    expect((await getWithToken(t.url, third, '/plants')).status).toBe(200);
  });
});
