import type { ServerResponse } from 'node:http';
import type { PassThrough } from 'node:stream';
import type { FeedPosition } from '@plantstore/domain';
import type { ChangeStreamEnd } from '../../ports/http-events.js';
import { HEARTBEAT_TEXT } from './feed-entry-text.js';

/**
 * One follower's Server-Sent Events stream: what is written goes into `sink`, which Fastify
 * pipes into the response as the follower takes it. It knows
 * where its follower stands (`position`: everything up to it was written) and holds at most
 * `maxBufferedBytes` its follower has not taken, and one more page: past that it ends, and the
 * follower resumes from its last event id. It ends once, for one reason.
 */
export class ChangeStream {
  private lastWriteAt: number;
  private endReason: ChangeStreamEnd | undefined;

  constructor(
    private readonly sink: PassThrough,
    private readonly response: ServerResponse,
    /** The bearer token it was opened with, checked again while it lasts. */
    readonly token: string,
    public position: FeedPosition,
    private readonly maxBufferedBytes: number,
    private readonly onEnd: (stream: ChangeStream, reason: ChangeStreamEnd) => void,
  ) {
    this.lastWriteAt = performance.now();
    response.once('close', () => this.end('client-closed'));
    // A write to a follower gone without a word fails here; 'close' follows.
    response.on('error', () => this.end('client-closed'));
  }

  get ended(): boolean {
    return this.endReason !== undefined;
  }

  /** Writes events; false when the stream has ended (now, because its follower is too slow, or before). */
  write(text: string): boolean {
    if (this.ended) return false;
    // What the follower has not taken yet, before this write: a stream holds at most the bound and one page.
    if (this.sink.writableLength + this.sink.readableLength > this.maxBufferedBytes) {
      this.end('slow-follower');
      return false;
    }
    this.sink.write(text);
    this.lastWriteAt = performance.now();
    return true;
  }

  /** Sends the comment line when nothing was written for `heartbeatMs`. */
  keepAlive(now: number, heartbeatMs: number): void {
    if (now - this.lastWriteAt >= heartbeatMs) this.write(HEARTBEAT_TEXT);
  }

  /** Resolves once the follower has taken what was written (at once when nothing waits), false if it did not in time. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    if (!this.sink.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (taken: boolean) => {
        clearTimeout(timer);
        this.sink.off('drain', onDrain);
        this.response.off('close', onClose);
        resolve(taken);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.sink.once('drain', onDrain);
      this.response.once('close', onClose);
    });
  }

  /**
   * Ends the stream once. A follower too slow (or gone) loses what is buffered: the connection
   * is cut, and it resumes from the last id it read. Otherwise the end is written after the rest.
   */
  end(reason: ChangeStreamEnd): void {
    if (this.ended) return;
    this.endReason = reason;
    if (reason === 'slow-follower' || reason === 'client-closed') {
      this.sink.destroy();
      this.response.destroy();
    } else this.sink.end();
    this.onEnd(this, reason);
  }
}
