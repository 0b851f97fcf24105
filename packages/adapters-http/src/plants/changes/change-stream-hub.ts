import type { ServerResponse } from 'node:http';
import type { PassThrough } from 'node:stream';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  ChangeCursor,
  compareFeedPositions,
  type AuthenticateToken,
  type FeedPosition,
  type PlantChangeFeed,
  type PositionedFeedEntry,
} from '@plantstore/domain';
import type { ChangeStreamEnd, HttpEvents } from '../../ports/http-events.js';
import type { ChangeStreamBounds } from './change-stream-bounds.js';
import { ChangeStream } from './change-stream.js';
import { changeEventText } from './feed-entry-text.js';

export interface ChangeStreamHubOptions {
  readonly feed: PlantChangeFeed;
  readonly authenticateToken: AuthenticateToken;
  readonly events: HttpEvents;
  readonly maxStreams: number;
  readonly tickMs: number;
  readonly bounds: ChangeStreamBounds;
}

/** A stream to start: the first page read for it (FollowChanges, which checked the cursor), and where it ends. */
export interface StreamStart {
  /** What the stream writes into; the response reads it. */
  readonly sink: PassThrough;
  readonly response: ServerResponse;
  readonly token: string;
  readonly firstPage: readonly PositionedFeedEntry[];
  /** The position right after the first page: the stream goes on from there. */
  readonly next: FeedPosition;
  /** Whether the first page was full, so that more may follow at once. */
  readonly firstPageFull: boolean;
}

/**
 * Every change stream of this instance, fed by one reader: each tick it reads the store once,
 * after its own position, and writes what it read to every live stream; the store's load does
 * not grow with the number of followers. A new stream first catches up with reads of its own,
 * page by page as its follower takes them, then joins: it joins only when it stands at or past
 * the reader's position, and takes from the reader only what lies past its own, so nothing is
 * missed or sent twice. Each tick also sends the idle streams their comment line; each second
 * the streams' tokens are checked again, and a stream whose token no longer reads ends.
 */
export class ChangeStreamHub implements OnModuleDestroy {
  private readonly logger = new Logger('ChangeStreams');
  /** Every open stream, catching up or live. */
  private readonly streams = new Set<ChangeStream>();
  /** The streams the reader writes to. */
  private readonly live = new Set<ChangeStream>();
  /** Streams admitted whose first page is still being read. */
  private opening = 0;
  /** Everything up to here was read and written to the live streams. */
  private position: FeedPosition | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private lastTokenCheck = 0;
  private checkingTokens = false;
  private closed = false;
  /** The reads failed since the last that worked: one line when they start failing, one when they work again. */
  private failedReads = 0;

  constructor(private readonly options: ChangeStreamHubOptions) {}

  /** Open streams (catching up or live). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Takes a place for a stream about to open, or says there is none (MAX_CHANGE_STREAMS, or
   * shutting down). The caller gives it back with `release` if the stream does not start.
   */
  reserve(): boolean {
    if (this.closed || this.streams.size + this.opening >= this.options.maxStreams) return false;
    this.opening++;
    return true;
  }

  release(): void {
    this.opening--;
  }

  /** Starts a reserved stream on a response whose head was written: its first page, its catch-up, then live. */
  start(start: StreamStart): void {
    this.opening--;
    // The follower left while its first page was read: its 'close' has come and gone.
    if (start.response.destroyed || start.response.socket?.destroyed !== false) {
      start.sink.destroy();
      return;
    }
    const stream = new ChangeStream(
      start.sink,
      start.response,
      start.token,
      start.next,
      this.options.bounds.maxBufferedBytes,
      (ended, reason) => this.forget(ended, reason),
    );
    this.streams.add(stream);
    this.options.events.changeStreamOpened();
    if (this.closed) return stream.end('shutdown');
    this.send(stream, start.firstPage);
    this.schedule();
    void this.catchUp(stream, start.firstPageFull);
  }

  onModuleDestroy(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const stream of [...this.streams]) stream.end('shutdown');
  }

  /** Reads on from the stream's own position until it stands where the reader does, then joins it. */
  private async catchUp(stream: ChangeStream, mayHaveMore: boolean): Promise<void> {
    const { feed, bounds } = this.options;
    let more = mayHaveMore;
    try {
      for (;;) {
        if (!(await stream.drained(bounds.drainTimeoutMs))) return stream.end('slow-follower');
        if (stream.ended) return;
        if (!more && this.tryJoin(stream, false)) return;
        const page = await feed.readAfter(stream.position, bounds.pageSize);
        if (stream.ended) return;
        // Nothing after its position, by the store's own word: nothing lies between it and the reader.
        if (page.length === 0 && this.tryJoin(stream, true)) return;
        this.send(stream, page);
        more = page.length === bounds.pageSize;
      }
    } catch (error) {
      this.logger.warn(`a change stream ended: the store could not be read (${(error as Error).message})`);
      stream.end('store-failed');
    }
  }

  /**
   * Joins when the stream has read everything up to the reader's position, or the store has
   * just said nothing lies past the stream (`caughtUp`); synchronously, so no read comes between.
   */
  private tryJoin(stream: ChangeStream, caughtUp: boolean): boolean {
    const idle = this.live.size === 0 && !this.reading;
    if (!idle && !caughtUp && this.position !== undefined && compareFeedPositions(stream.position, this.position) < 0)
      return false;
    // An idle reader starts where its first follower stands.
    if (idle) this.position = stream.position;
    this.live.add(stream);
    this.schedule();
    return true;
  }

  private forget(stream: ChangeStream, reason: ChangeStreamEnd): void {
    this.streams.delete(stream);
    this.live.delete(stream);
    this.options.events.changeStreamEnded(reason);
  }

  private schedule(delayMs = this.options.tickMs): void {
    if (this.timer !== undefined || this.reading || this.closed || this.streams.size === 0) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.reading = true;
    let full = false;
    try {
      if (this.live.size > 0 && this.position !== undefined) {
        const page = await this.options.feed.readAfter(this.position, this.options.bounds.pageSize);
        full = page.length === this.options.bounds.pageSize;
        const last = page.at(-1)?.position;
        if (last !== undefined && compareFeedPositions(last, this.position) > 0) this.position = last;
        this.broadcast(page);
        if (this.failedReads > 0)
          this.logger.log(`the change streams read the store again after ${this.failedReads} failed reads`);
        this.failedReads = 0;
      }
    } catch (error) {
      // The streams stay open: the next tick reads again from the same position.
      if (this.failedReads++ === 0)
        this.logger.warn(`the change streams' read failed (${(error as Error).message}); retrying each tick`);
    } finally {
      this.reading = false;
    }
    const now = performance.now();
    for (const stream of this.streams) stream.keepAlive(now, this.options.bounds.heartbeatMs);
    if (now - this.lastTokenCheck >= this.options.bounds.tokenRecheckMs) {
      this.lastTokenCheck = now;
      void this.checkTokens();
    }
    // A full page: more is waiting, read it as soon as the followers' sockets had their turn.
    this.schedule(full ? 0 : this.options.tickMs);
  }

  /** Writes a page to every live stream, each from past its own position; each event's text is made once. */
  private broadcast(page: readonly PositionedFeedEntry[]): void {
    if (page.length === 0) return;
    const texts = page.map(({ entry, position }) => changeEventText(entry, ChangeCursor.encode(position)));
    const all = texts.join('');
    const last = page[page.length - 1]!.position;
    for (const stream of this.live) {
      let from = 0;
      while (from < page.length && compareFeedPositions(page[from]!.position, stream.position) <= 0) from++;
      if (from === page.length) continue;
      if (stream.write(from === 0 ? all : texts.slice(from).join(''))) {
        stream.position = last;
        this.options.events.changesSent(page.length - from);
      }
    }
  }

  /** A stream's own read: written as it comes, its position moved past it. */
  private send(stream: ChangeStream, page: readonly PositionedFeedEntry[]): void {
    if (page.length === 0) return;
    const text = page.map(({ entry, position }) => changeEventText(entry, ChangeCursor.encode(position))).join('');
    if (stream.write(text)) {
      stream.position = page[page.length - 1]!.position;
      this.options.events.changesSent(page.length);
    }
  }

  /** Each distinct token once: a stream whose token is revoked, expired or no longer reads, ends. */
  private async checkTokens(): Promise<void> {
    if (this.checkingTokens) return;
    this.checkingTokens = true;
    try {
      const byToken = new Map<string, ChangeStream[]>();
      for (const stream of this.streams) {
        const same = byToken.get(stream.token);
        if (same === undefined) byToken.set(stream.token, [stream]);
        else same.push(stream);
      }
      await Promise.all(
        [...byToken].map(async ([token, streams]) => {
          const result = await this.options.authenticateToken.execute(token).catch(() => undefined);
          // A store that cannot answer refuses nothing: the streams cannot be fed either, and stay until it is back.
          if (result === undefined || (result.ok && result.principal.can('plants:read'))) return;
          for (const stream of streams) stream.end('token-refused');
        }),
      );
    } finally {
      this.checkingTokens = false;
    }
  }
}
