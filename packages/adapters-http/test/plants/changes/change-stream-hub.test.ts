import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  AuthenticateToken,
  ChangeCursor,
  compareFeedPositions,
  FEED_ORIGIN,
  IssueToken,
  type FeedPosition,
} from '@plantstore/domain';
import { DeterministicTokenSecrets, FixedClock, InMemoryTokenRepository } from '@plantstore/domain/testing';
import { CHANGE_STREAM_BOUNDS, type ChangeStreamBounds } from '../../../src/plants/changes/change-stream-bounds.js';
import { ChangeStreamHub } from '../../../src/plants/changes/change-stream-hub.js';
import { feedEntryJson } from '../../../src/plants/changes/feed-entry-text.js';
import type { ChangeStreamEnd, HttpEvents } from '../../../src/ports/http-events.js';
import { openEventStream, type EventStreamReader } from '../../../../../test-support/event-stream-reader.js';
import { InMemoryChangeFeed } from './support/in-memory-change-feed.js';

/** What the hub told: the streams that ended, by reason. */
class StreamEvents implements Partial<HttpEvents> {
  readonly ended: ChangeStreamEnd[] = [];
  opened = 0;
  changeStreamOpened(): void {
    this.opened++;
  }
  changeStreamEnded(reason: ChangeStreamEnd): void {
    this.ended.push(reason);
  }
  changesSent(): void {}
}

interface Harness {
  readonly feed: InMemoryChangeFeed;
  readonly hub: ChangeStreamHub;
  readonly events: StreamEvents;
  readonly tokens: InMemoryTokenRepository;
  readonly clock: FixedClock;
  /** A token that reads, and its id. */
  readonly token: { plaintext: string; id: string };
  /** Opens a stream from the cursor (from the beginning when absent), the hub reading its first page itself. */
  readonly follow: (after?: string) => Promise<EventStreamReader>;
}

/**
 * The hub on a bare Node server, with the bounds a test picks: the route's own checks are
 * changes-route.test.ts's business; here the hub's reads, joins and bounds are watched.
 */
describe('the change streams’ hub', () => {
  let server: Server | undefined;
  let harness: Harness;
  const readers: EventStreamReader[] = [];

  async function start(tickMs: number, bounds: Partial<ChangeStreamBounds> = {}): Promise<Harness> {
    const feed = new InMemoryChangeFeed();
    const tokens = new InMemoryTokenRepository();
    const secrets = new DeterministicTokenSecrets();
    const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    const events = new StreamEvents();
    const hub = new ChangeStreamHub({
      feed,
      authenticateToken: new AuthenticateToken(tokens, secrets, clock),
      events: events as unknown as HttpEvents,
      maxStreams: 1_000,
      tickMs,
      bounds: { ...CHANGE_STREAM_BOUNDS, ...bounds },
    });
    const issued = await new IssueToken(tokens, secrets, clock).execute({ name: 'follower', scopes: ['plants:read'] });
    server = createServer((request, response) => {
      const after = new URL(request.url ?? '/', 'http://hub').searchParams.get('after');
      const next: FeedPosition = after === null ? FEED_ORIGIN : ChangeCursor.decode(after)!;
      if (!hub.reserve()) return void response.writeHead(503).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      const sink = new PassThrough();
      sink.pipe(response);
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      hub.start({ sink, response, token, firstPage: [], next, firstPageFull: true });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    harness = {
      feed,
      hub,
      events,
      tokens,
      clock,
      token: { plaintext: issued.plaintext, id: issued.token.id },
      follow: async (after) => {
        const reader = await openEventStream(`${base}/${after === undefined ? '' : `?after=${after}`}`, {
          authorization: `Bearer ${issued.plaintext}`,
        });
        readers.push(reader);
        return reader;
      },
    };
    return harness;
  }

  afterEach(async () => {
    harness.hub.onModuleDestroy();
    for (const reader of readers.splice(0)) reader.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('reads the store once per tick for all its streams, not once per stream', async () => {
    const { feed, follow } = await start(100);
    for (let id = 1n; id <= 3n; id++) feed.put(id, `plant ${id}`);
    const followers = await Promise.all(Array.from({ length: 25 }, () => follow()));
    await Promise.all(followers.map((follower) => follower.untilEvents(3)));
    const readsBefore = feed.reads.length;
    const startedAt = performance.now();
    feed.put(4n, 'plant 4');
    await Promise.all(followers.map((follower) => follower.untilEvents(4)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ticks = (performance.now() - startedAt) / 100;
    const reads = feed.reads.slice(readsBefore);
    // About one read per tick (a tick that found a full page reads again at once), whatever the number of streams.
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(ticks) + 2);
    expect(reads.length).toBeLessThan(followers.length);
    // Every read after the joins starts from the reader's own position, shared by all.
    expect(new Set(reads.map(({ after }) => ChangeCursor.encode(after))).size).toBeLessThanOrEqual(2);
  });

  it('lets a stream catch up while changes commit, then join: its copy ends equal to the store, nothing twice', async () => {
    const { feed, follow } = await start(20, { pageSize: 7 });
    for (let id = 1n; id <= 60n; id++) feed.put(id, `plant ${id}`);
    let writes = 0;
    const writer = setInterval(() => {
      const id = BigInt(1 + ((writes * 7) % 80));
      if (writes % 5 === 4) feed.delete(id);
      else feed.put(id, `plant ${id} #${writes}`, writes % 2 === 0 ? 'even' : undefined);
      writes++;
    }, 2);
    const followers: EventStreamReader[] = [];
    for (let i = 0; i < 5; i++) {
      followers.push(await follow());
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    clearInterval(writer);
    const expected = [...feed.state()].map(([id, entry]) => [id, feedEntryJson(entry)] as const);
    for (const follower of followers) {
      const copy = new Map<string, string>();
      await follower.until(() => {
        copy.clear();
        for (const { data } of follower.events) copy.set(/"id":(-?\d+)/.exec(data)![1]!, data);
        return expected.every(([id, json]) => copy.get(id) === json);
      });
      expect(new Map(expected)).toEqual(copy);
      // Each event once, in the feed's order, and a plant's version never goes down.
      const positions = follower.events.map(({ id }) => ChangeCursor.decode(id!)!);
      positions.slice(1).forEach((position, i) => expect(compareFeedPositions(position, positions[i]!)).toBe(1));
      const versions = new Map<string, number>();
      for (const { data } of follower.events) {
        const { id, version } = JSON.parse(data.replace(/"id":(-?\d+)/, '"id":"$1"')) as {
          id: string;
          version: number;
        };
        expect(version).toBeGreaterThan(versions.get(id) ?? 0);
        versions.set(id, version);
      }
    }
  });

  it('ends the stream of a follower that does not read, and only that one', async () => {
    const { feed, follow, events } = await start(20, { maxBufferedBytes: 64 * 1024, drainTimeoutMs: 200 });
    const reading = await follow();
    const stalled = await follow();
    stalled.response.pause();
    const name = 'n'.repeat(200);
    for (let id = 1n; id <= 25_000n; id++) feed.put(id, name, 't'.repeat(64));
    await reading.untilEvents(25_000, 30_000);
    expect(events.ended).toEqual(['slow-follower']);
    expect(reading.ended).toBe(false);
    // Once it reads again, it gets what was on its way, then the end: it resumes from its last id.
    stalled.response.resume();
    await stalled.untilEnded(10_000);
    expect(stalled.events.length).toBeLessThan(25_000);
  });

  it('sends a comment line to a stream that has had nothing to say for the heartbeat', async () => {
    const { follow } = await start(20, { heartbeatMs: 200 });
    const idle = await follow();
    await idle.until(() => idle.comments >= 2, 5_000);
    expect(idle.events).toEqual([]);
  });

  it('ends a stream once its token is revoked or expired, at its next check', async () => {
    const { follow, tokens, clock, token, events } = await start(20, { tokenRecheckMs: 50 });
    const follower = await follow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(follower.ended).toBe(false);
    await tokens.revoke(token.id, clock.now());
    await follower.untilEnded(5_000);
    expect(events.ended).toEqual(['token-refused']);
  });

  it('ends every stream when the server stops, and refuses new ones', async () => {
    const { follow, hub, events } = await start(20);
    const followers = [await follow(), await follow()];
    await new Promise((resolve) => setTimeout(resolve, 100));
    hub.onModuleDestroy();
    await Promise.all(followers.map((follower) => follower.untilEnded(5_000)));
    expect(events.ended).toEqual(['shutdown', 'shutdown']);
    expect(hub.reserve()).toBe(false);
  });

  it('takes no place for a follower gone before its stream started', async () => {
    const { follow, hub, events } = await start(20);
    const left = await follow();
    left.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hub.size).toBe(0);
    // A response already closed when its stream would start: nothing opens, the place is free.
    const response = { destroyed: true, socket: null } as unknown as ServerResponse;
    expect(hub.reserve()).toBe(true);
    hub.start({ sink: new PassThrough(), response, token: '', firstPage: [], next: FEED_ORIGIN, firstPageFull: false });
    expect(hub.size).toBe(0);
    expect(events.opened).toBe(1);
  });

  it('keeps its streams open while the store cannot be read, and goes on from the same place', async () => {
    const { feed, follow } = await start(20);
    feed.put(1n, 'Fern');
    const follower = await follow();
    await follower.untilEvents(1);
    feed.failing = true;
    feed.put(2n, 'Moss');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(follower.ended).toBe(false);
    feed.failing = false;
    await follower.untilEvents(2);
    expect(follower.events.map(({ data }) => data)).toEqual([
      '{"id":1,"version":1,"name":"Fern"}',
      '{"id":2,"version":1,"name":"Moss"}',
    ]);
  });
});
