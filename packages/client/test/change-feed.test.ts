import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreInputError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreClient,
} from '../src/index.js';
import { PlantStoreClient as Client } from '../src/index.js';
import { FakeFeedServer } from './support/fake-feed-server.js';
import { apiError, headersOf, scripted, TEST_TOKEN, text } from './support/scripted-fetch.js';

/** The change feed: one page (against a scripted fetch) and following it (against a fake feed on 127.0.0.1). */

describe('changesPage', () => {
  it('is GET {baseUrl}/plants/changes with after and limit, answering exact ids, versions and deletions', async () => {
    const { client, sent } = scripted([
      text(
        200,
        '{"changes":[{"id":9007199254740993,"version":2,"name":"Fern","tag":"green"},{"id":-9223372036854775808,"version":3,"deleted":true},{"id":5,"version":1,"name":"Aloe"}],"next":"1.0.2.5.abc"}',
      ),
    ]);
    const page = await client.changesPage({ after: '1.0.1.0.xyz', limit: 3 });
    expect(page).toEqual({
      changes: [
        { id: 9007199254740993n, version: 2, deleted: false, name: 'Fern', tag: 'green' },
        { id: -9223372036854775808n, version: 3, deleted: true },
        { id: 5n, version: 1, deleted: false, name: 'Aloe' },
      ],
      next: '1.0.2.5.abc',
    });
    expect(sent[0]!.url).toBe('https://plants.example/api/plants/changes?after=1.0.1.0.xyz&limit=3');
    expect(headersOf(sent[0]!).get('authorization')).toBe(`Bearer ${TEST_TOKEN}`);
    expect(headersOf(sent[0]!).get('accept')).toBe('application/json');
  });

  it('without a query asks from the beginning, with the default limit', async () => {
    const { client, sent } = scripted([text(200, '{"changes":[],"next":"1.0.0.0.q"}')]);
    expect(await client.changesPage()).toEqual({ changes: [], next: '1.0.0.0.q' });
    expect(sent[0]!.url).toBe('https://plants.example/api/plants/changes');
  });

  it('a cursor the store did not issue is the API error 40004, answered at once', async () => {
    const { client, sent } = scripted([apiError(400, 40004, 'after must be a cursor this store handed out')]);
    await expect(client.changesPage({ after: 'tampered' })).rejects.toMatchObject({ status: 400, code: 40004 });
    expect(sent).toHaveLength(1);
  });

  it.each([
    ['a cursor with a character no cursor holds', { after: 'a b' }, /after is a cursor/],
    ['an empty cursor', { after: '' }, /after is a cursor/],
    ['a cursor over 100 characters', { after: 'a'.repeat(101) }, /after is a cursor/],
    ['a limit of 0', { limit: 0 }, /limit must be a whole number from 1 to 1000/],
  ])('%s is a PlantStoreInputError, nothing sent', async (_, query, message) => {
    const { client, sent } = scripted([]);
    const error = await client.changesPage(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreInputError);
    expect((error as Error).message).toMatch(message);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['not a page', '[]', /not a page of changes/],
    ['a page without next', '{"changes":[]}', /not a page of changes/],
    [
      'an id past int64',
      '{"changes":[{"id":9223372036854775808,"version":1,"name":"a"}],"next":"c1"}',
      /change 0: its id 9223372036854775808 \(as the server sent it\)|item 0: its id 9223372036854775808 \(as the server sent it\)/,
    ],
    [
      'an id in exponent notation',
      '{"changes":[{"id":1e2,"version":1,"name":"a"}],"next":"c1"}',
      /its id 1e2 \(as the server sent it\) is not an int64/,
    ],
    ['a version of 0', '{"changes":[{"id":1,"version":0,"name":"a"}],"next":"c1"}', /its version/],
    ['a live entry without a name', '{"changes":[{"id":1,"version":1}],"next":"c1"}', /neither a plant/],
    ['deleted: false', '{"changes":[{"id":1,"version":1,"name":"a","deleted":false}],"next":"c1"}', /neither a plant/],
  ])('a 200 that is %s is a PlantStoreUnexpectedResponseError', async (_, body, message) => {
    const { client } = scripted([text(200, body)]);
    const error = await client.changesPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreUnexpectedResponseError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('followChanges', () => {
  let feed: FakeFeedServer;
  const clients: PlantStoreClient[] = [];
  const client = (options: { defaultDeadlineMs?: number } = {}) => {
    const made = new Client({
      baseUrl: feed.url,
      token: TEST_TOKEN,
      retry: { baseDelayMs: 10, maxDelayMs: 50 },
      ...options,
    });
    clients.push(made);
    return made;
  };
  const plant = (id: string, version: number, name: string) => `{"id":${id},"version":${version},"name":"${name}"}`;

  beforeEach(async () => {
    feed = await new FakeFeedServer().start();
  });
  afterEach(async () => {
    await feed.stop();
  });

  it('reads the pages until it has caught up, then each change as it commits, over the stream from the last cursor', async () => {
    feed.push(plant('9007199254740993', 1, 'Fern'));
    feed.push(plant('2', 1, 'Aloe'));
    feed.push('{"id":3,"version":2,"deleted":true}');
    const follow = client().followChanges({ limit: 2 });
    expect((await follow.next()).value).toEqual({
      changes: [
        { id: 9007199254740993n, version: 1, deleted: false, name: 'Fern' },
        { id: 2n, version: 1, deleted: false, name: 'Aloe' },
      ],
      next: 'c2',
      caughtUp: false,
    });
    expect((await follow.next()).value).toEqual({
      changes: [{ id: 3n, version: 2, deleted: true }],
      next: 'c3',
      caughtUp: true,
    });
    const live = follow.next();
    await feed.requestsReach(3);
    while (feed.openStreams === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    feed.push(plant('2', 2, 'Aloe vera'));
    expect((await live).value).toEqual({
      changes: [{ id: 2n, version: 2, deleted: false, name: 'Aloe vera' }],
      next: 'c4',
      caughtUp: true,
    });
    await follow.return(undefined as never);
    expect(feed.requests.map(({ url, headers }) => [url, headers.accept, headers['last-event-id']])).toEqual([
      ['/plants/changes?limit=2', 'application/json', undefined],
      ['/plants/changes?after=c2&limit=2', 'application/json', undefined],
      ['/plants/changes', 'text/event-stream', 'c3'],
    ]);
    expect(feed.requests.every(({ headers }) => headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
  });

  it('on an empty store says it has caught up with an empty batch, from the cursor it was given', async () => {
    const follow = client().followChanges({ after: 'c0' });
    expect((await follow.next()).value).toEqual({ changes: [], next: 'c0', caughtUp: true });
    await follow.return(undefined as never);
  });

  it('opens a cut stream again from its last id: nothing committed meanwhile is missed, nothing is seen twice', async () => {
    feed.push(plant('1', 1, 'Fern'));
    const seen: string[] = [];
    const follow = client().followChanges();
    const reading = (async () => {
      for await (const { changes, next } of follow) {
        for (const change of changes) seen.push(`${change.id}@${change.version} ${next}`);
        if (seen.length === 4) return;
      }
    })();
    while (feed.openStreams === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    feed.push(plant('2', 1, 'Aloe'));
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    feed.cutStreams();
    feed.push(plant('1', 2, 'Fern, tall'));
    feed.push(plant('3', 1, 'Ivy'));
    await reading;
    expect(seen).toEqual(['1@1 c1', '2@1 c2', '1@2 c3', '3@1 c4']);
    const streams = feed.requests.filter(({ headers }) => headers.accept === 'text/event-stream');
    expect(streams.map(({ headers }) => headers['last-event-id'])).toEqual(['c1', 'c2']);
  });

  it('takes a stream that falls silent as cut, and a keep-alive comment as a sign of life', async () => {
    feed.silent = true;
    const follow = client().followChanges({ silenceTimeoutMs: 150 });
    await follow.next();
    const waiting = follow.next();
    await feed.requestsReach(3);
    expect(feed.requests[1]!.headers.accept).toBe('text/event-stream');
    feed.silent = false;
    feed.push(plant('8', 1, 'Moss'));
    expect((await waiting).value).toMatchObject({ changes: [{ id: 8n, name: 'Moss' }], next: 'c1' });
    const streamsBefore = feed.requests.length;
    const next = follow.next();
    // Comments more often than the silence allows keep the one stream open.
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      feed.keepAlive();
    }
    expect(feed.requests).toHaveLength(streamsBefore);
    feed.push(plant('9', 1, 'Fern'));
    expect((await next).value).toMatchObject({ changes: [{ id: 9n }], next: 'c2' });
    await follow.return(undefined as never);
  });

  it('waits out a 503 with Retry-After before opening the stream again', async () => {
    const follow = client().followChanges();
    await follow.next();
    feed.failures.push({
      status: 503,
      body: '{"error":50301,"message":"The server is shutting down."}',
      headers: { 'retry-after': '0' },
    });
    const waiting = follow.next();
    await feed.requestsReach(3);
    feed.push(plant('4', 1, 'Cactus'));
    expect((await waiting).value).toMatchObject({ changes: [{ id: 4n, name: 'Cactus' }] });
    await follow.return(undefined as never);
  });

  it('ends with the API error when the stream is refused for good (a revoked token)', async () => {
    const follow = client().followChanges();
    await follow.next();
    feed.failures.push({
      status: 401,
      body: '{"error":40102,"message":"The bearer token is invalid, expired or revoked."}',
    });
    const error = await follow.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreApiError);
    expect(error).toMatchObject({ status: 401, code: 40102 });
  });

  it('ends with a PlantStoreDeadlineError when the server stays away past the default deadline', async () => {
    const follow = client({ defaultDeadlineMs: 300 }).followChanges();
    await follow.next();
    const ending = follow.next().catch((e: unknown) => e);
    while (feed.openStreams === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await feed.stop();
    const error = await ending;
    expect(error).toBeInstanceOf(PlantStoreDeadlineError);
    expect((error as Error).message).toMatch(
      /to open it again: the next would start past the default deadline \(300 ms\)/,
    );
    feed = await new FakeFeedServer().start();
  });

  it('ends at once with the reason of an aborted signal, and closes its stream', async () => {
    const stop = new AbortController();
    const follow = client().followChanges({ signal: stop.signal });
    await follow.next();
    const waiting = follow.next().catch((e: unknown) => e);
    while (feed.openStreams === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error('the view was left');
    stop.abort(reason);
    expect(await waiting).toBe(reason);
    while (feed.openStreams > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('a follower that breaks out of its loop closes its stream', async () => {
    feed.push(plant('1', 1, 'Fern'));
    for await (const { caughtUp } of client().followChanges()) if (caughtUp) break;
    expect(feed.openStreams).toBe(0);
  });

  it('an event that is not a change entry ends the follow with a PlantStoreUnexpectedResponseError quoting it', async () => {
    feed.streamPreamble = 'id: c1\nevent: change\ndata: {"id":1e2,"version":1,"name":"a"}\n\n';
    const follow = client().followChanges();
    await follow.next();
    const error = await follow.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreUnexpectedResponseError);
    expect((error as Error).message).toMatch(/its id 1e2 \(as the server sent it\) is not an int64/);
  });

  it.each([
    ['a cursor that is none', { after: 'not a cursor' }, /after is a cursor/],
    ['a limit past 1000', { limit: 1001 }, /limit must be a whole number/],
    ['a silence timeout of 0', { silenceTimeoutMs: 0 }, /silenceTimeoutMs/],
  ])('%s is a PlantStoreInputError, thrown before anything is sent', (_, options, message) => {
    expect(() => client().followChanges(options)).toThrow(message);
    expect(feed.requests).toHaveLength(0);
  });
});
