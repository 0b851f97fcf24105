import type { AddressInfo } from 'node:net';
import { ChangeCursor } from '@plantstore/domain';
import { startHttpTestApp, type HttpTestApp, type HttpTestAppOptions } from '../../support/http-test-app.js';
import { openEventStream, type EventStreamReader } from '../../../../../test-support/event-stream-reader.js';
import { InMemoryChangeFeed } from './support/in-memory-change-feed.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: string;
}

describe('GET /plants/changes', () => {
  let feed: InMemoryChangeFeed;
  let test: HttpTestApp;
  let reader: string;
  const readers: EventStreamReader[] = [];

  async function start(options: HttpTestAppOptions = {}): Promise<void> {
    feed = new InMemoryChangeFeed();
    test = await startHttpTestApp({ changes: feed, ...options });
    reader = await test.token(['plants:read']);
  }

  afterEach(async () => {
    for (const each of readers.splice(0)) each.close();
    await test.app.close();
  });

  async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    const answer = await test.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${reader}`, ...headers },
    });
    return { status: answer.statusCode, headers: answer.headers, body: answer.body };
  }

  async function listen(): Promise<string> {
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(test.app.getHttpServer().address() as AddressInfo).port}`;
  }

  async function stream(base: string, query = '', headers: Record<string, string> = {}): Promise<EventStreamReader> {
    const opened = await openEventStream(`${base}/plants/changes${query}`, {
      authorization: `Bearer ${reader}`,
      ...headers,
    });
    readers.push(opened);
    return opened;
  }

  describe('as JSON pages', () => {
    beforeEach(() => start());

    it('answers every plant changed after the cursor once, at its latest state, ids exact, deletions as such', async () => {
      feed.put(9223372036854775807n, 'Fern', 'green');
      feed.put(2n, 'Moss');
      feed.put(9223372036854775807n, 'Fern "big"');
      feed.delete(2n);
      const answer = await get('/plants/changes');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      const next = (JSON.parse(answer.body) as { next: string }).next;
      expect(answer.body).toBe(
        `{"changes":[{"id":9223372036854775807,"version":2,"name":"Fern \\"big\\""},{"id":2,"version":2,"deleted":true}],"next":"${next}"}`,
      );
      // At the end: an empty page, and a next at the same place.
      const after = await get(`/plants/changes?after=${next}`);
      expect(JSON.parse(after.body)).toEqual({ changes: [], next });
      feed.put(3n, 'Ivy');
      expect(JSON.parse((await get(`/plants/changes?after=${next}`)).body)).toMatchObject({
        changes: [{ id: 3, version: 1, name: 'Ivy' }],
      });
    });

    it('pages by limit, each next continuing where the page ended', async () => {
      for (let id = 1n; id <= 5n; id++) feed.put(id, `plant ${id}`);
      const seen: number[] = [];
      let cursor = '';
      for (let page = 0; page < 3; page++) {
        const body = JSON.parse((await get(`/plants/changes?limit=2${cursor}`)).body) as {
          changes: Array<{ id: number }>;
          next: string;
        };
        seen.push(...body.changes.map((change) => change.id));
        cursor = `&after=${body.next}`;
      }
      expect(seen).toEqual([1, 2, 3, 4, 5]);
    });

    it.each([
      ['an unknown parameter', '?since=1', 'since is not a query parameter of this operation (known: after, limit)'],
      [
        'a repeated after',
        `?after=${ChangeCursor.origin}&after=${ChangeCursor.origin}`,
        'after must be given at most once',
      ],
      ['a repeated limit', '?limit=1&limit=2', 'limit must be given at most once'],
      ['a malformed cursor', '?after=42', 'after must be a cursor this store handed out'],
      ['an altered cursor', `?after=${ChangeCursor.origin.slice(0, -1)}x`, 'after must be a cursor'],
      ['a limit of 0', '?limit=0', 'limit must be a whole number from 1 to 1000'],
      ['a limit of 1001', '?limit=1001', 'limit must be a whole number from 1 to 1000'],
      ['a limit with a leading zero', '?limit=010', 'limit must be a whole number'],
    ])('refuses %s with 400 40004 naming it', async (_case, query, words) => {
      const answer = await get(`/plants/changes${query}`);
      expect(answer.status).toBe(400);
      const body = JSON.parse(answer.body) as { error: number; message: string };
      expect(body.error).toBe(40004);
      expect(body.message).toContain(words);
    });

    it('refuses a well-formed cursor beyond the newest change: this store cannot have issued it', async () => {
      feed.put(1n, 'Fern');
      const beyond = ChangeCursor.encode({ epoch: 0n, commit: 99n, id: 1n });
      const answer = await get(`/plants/changes?after=${beyond}`);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        error: 40004,
        message: expect.stringContaining('after must be a cursor this store handed out') as string,
      });
    });

    it('asks for a token that reads, as the reads do', async () => {
      const none = await test.app.inject({ method: 'GET', url: '/plants/changes' });
      expect(none.statusCode).toBe(401);
      expect(JSON.parse(none.body)).toMatchObject({ error: 40101 });
      const writer = await test.token(['plants:write']);
      const answer = await get('/plants/changes', { authorization: `Bearer ${writer}` });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 40301 });
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
      'answers %s with 405 and Allow: GET, HEAD, before the token',
      async (method) => {
        const answer = await test.app.inject({ method: method as 'POST', url: '/plants/changes' });
        expect(answer.statusCode).toBe(405);
        expect(answer.headers['allow']).toBe('GET, HEAD');
        expect(JSON.parse(answer.body)).toEqual({
          error: 40501,
          message: `${method} is not allowed on /plants/changes; allowed: GET, HEAD.`,
        });
      },
    );

    it('answers HEAD as GET without a body', async () => {
      feed.put(1n, 'Fern');
      const answer = await get('/plants/changes', {}, 'HEAD');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.body).toBe('');
    });

    it('still serves /plants/{id} for ids', async () => {
      expect((await get('/plants/12')).status).toBe(404);
    });
  });

  describe('as a stream of Server-Sent Events', () => {
    async function fetchAs(base: string, token: string, path = '/plants/changes'): Promise<Response> {
      return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    }

    it('sends every change after the cursor, then each change as it commits, each id the cursor after it', async () => {
      await start();
      feed.put(1n, 'Fern');
      feed.put(2n, 'Moss', 'green');
      const base = await listen();
      const follower = await stream(base);
      expect(follower.status).toBe(200);
      expect(follower.headers['content-type']).toBe('text/event-stream');
      expect(follower.headers['cache-control']).toBe('no-cache');
      expect(follower.headers['x-accel-buffering']).toBe('no');
      await follower.untilEvents(2);
      feed.delete(1n);
      await follower.untilEvents(3);
      expect(follower.events.map(({ event, data }) => [event, data])).toEqual([
        ['change', '{"id":1,"version":1,"name":"Fern"}'],
        ['change', '{"id":2,"version":1,"name":"Moss","tag":"green"}'],
        ['change', '{"id":1,"version":2,"deleted":true}'],
      ]);
      // Each id is a cursor: the page after the second event holds exactly the third.
      const afterSecond = JSON.parse((await get(`/plants/changes?after=${follower.events[1]!.id}`)).body) as {
        changes: unknown[];
        next: string;
      };
      expect(afterSecond).toEqual({ changes: [{ id: 1, version: 2, deleted: true }], next: follower.events[2]!.id });
    });

    it('resumes after Last-Event-ID, which wins over after: nothing missed, nothing twice', async () => {
      await start();
      for (let id = 1n; id <= 4n; id++) feed.put(id, `plant ${id}`);
      const base = await listen();
      const first = await stream(base, '?limit=2');
      await first.untilEvents(4);
      first.close();
      feed.put(5n, 'plant 5');
      const resumed = await stream(base, `?after=${ChangeCursor.origin}`, { 'last-event-id': first.events[1]!.id! });
      await resumed.untilEvents(3);
      expect(resumed.events.map(({ data }) => (JSON.parse(data) as { id: number }).id)).toEqual([3, 4, 5]);
    });

    it('refuses a Last-Event-ID this store did not hand out with 400 40004 naming it', async () => {
      await start();
      const base = await listen();
      const refused = await stream(base, '', { 'last-event-id': 'forged' });
      expect(refused.status).toBe(400);
      await refused.untilEnded();
      const answer = await get('/plants/changes', { accept: 'text/event-stream', 'last-event-id': 'forged' });
      expect(JSON.parse(answer.body)).toEqual({
        error: 40004,
        message: expect.stringContaining('Last-Event-ID must be a cursor this store handed out') as string,
      });
    });

    it('answers HEAD with the stream’s head and no body', async () => {
      await start();
      const answer = await get('/plants/changes', { accept: 'text/event-stream' }, 'HEAD');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/event-stream');
      expect(answer.body).toBe('');
    });

    it('opens at most MAX_CHANGE_STREAMS: the next gets 503 50301 with Retry-After, pages are still served', async () => {
      await start({ http: { maxChangeStreams: 1 } });
      const base = await listen();
      const open = await stream(base);
      expect(open.status).toBe(200);
      const refused = await stream(base);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect((await get('/plants/changes')).status).toBe(200);
      open.close();
      await open.untilEnded();
      // Its place is free again once the follower is gone (the server sees the close a moment later).
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        const again = await stream(base);
        status = again.status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(200);
    });

    it('holds one of its client’s places while it lasts, not one of the places all requests share', async () => {
      await start({ http: { maxRequestsInFlight: 1, maxRequestsInFlightPerClient: 1 } });
      const other = await test.token(['plants:read']);
      const base = await listen();
      const open = await stream(base);
      expect(open.status).toBe(200);
      const sameClient = await fetchAs(base, reader);
      expect(sameClient.status).toBe(429);
      expect(await sameClient.json()).toMatchObject({ error: 42901 });
      // Another client is served: the stream gave back its place among MAX_REQUESTS_IN_FLIGHT.
      expect((await fetchAs(base, other)).status).toBe(200);
      expect((await fetchAs(base, other)).status).toBe(200);
    });

    it('tells the metrics the open streams, the entries sent and the feed’s lag', async () => {
      const lagSince = new Date(Date.now() - 60_000);
      await start({ feedLag: async () => ({ changes: 3, oldestChangedAt: lagSince }) });
      feed.put(1n, 'Fern');
      const base = await listen();
      const follower = await stream(base);
      await follower.untilEvents(1);
      await get('/plants/changes');
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^plantstore_change_streams_open 1$/m);
      expect(metrics).toMatch(/^plantstore_changes_sent_total 2$/m);
      expect(metrics).toMatch(/^plantstore_change_feed_lag_changes 3$/m);
      const lagSeconds = Number(/^plantstore_change_feed_lag_seconds (\S+)$/m.exec(metrics)?.[1]);
      expect(lagSeconds).toBeGreaterThanOrEqual(60);
      expect(lagSeconds).toBeLessThan(120);
    });
  });
});
