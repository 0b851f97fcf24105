import { isCursor, MalformedAnswer, readFeedEvent } from './answers.js';
import {
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreError,
} from './errors.js';
import type { ChangesPage, ChangesQuery, FollowedChanges } from './plant-types.js';
import { parseRetryAfter, retryDelayMs, type AttemptFailure } from './retry-policy.js';
import { errorFrom, excerpt, type TransportSettings } from './retrying-transport.js';
import { ServerSentEventParser } from './server-sent-events.js';

/** How `followChanges` follows: from where, until when. */
export interface FollowChangesOptions {
  /** A cursor from an earlier batch (`next`): only what changed after it. From the beginning when absent. */
  readonly after?: string | undefined;
  /** Changes per page while catching up (1–1000, 100 by default). */
  readonly limit?: number;
  /** Aborting ends the follow at once with the signal's reason, and closes its stream. */
  readonly signal?: AbortSignal;
  /**
   * A stream that sends nothing (no change, no keep-alive comment, which the API sends after
   * 15 s without a change) for this long is taken as cut, and opened again. 45 s by default.
   */
  readonly silenceTimeoutMs?: number;
}

export const DEFAULT_SILENCE_TIMEOUT_MS = 45_000;

/** One page of the feed, read as any call is (retried until the client's default deadline). */
export type ReadPage = (query: ChangesQuery, signal: AbortSignal | undefined) => Promise<ChangesPage>;

type Connection =
  { readonly response: Response } | { readonly error: PlantStoreError; readonly failure: AttemptFailure };

/**
 * Follows the change feed: pages until it has caught up, then the live stream (Server-Sent
 * Events over fetch, so that the token stays in the Authorization header). A stream that ends,
 * fails or falls silent is opened again from the last cursor (as Last-Event-ID), with the
 * backoff of any retry; an outage longer than the client's default deadline ends the follow
 * with a PlantStoreDeadlineError, and an answer that repeating would not change (401, 403,
 * 400…) with its error.
 */
export class ChangeFollower {
  constructor(
    private readonly settings: TransportSettings,
    private readonly changesUrl: URL,
    private readonly readPage: ReadPage,
  ) {}

  async *follow(options: FollowChangesOptions, limit: number): AsyncGenerator<FollowedChanges, never> {
    const { signal } = options;
    let cursor = options.after;
    for (;;) {
      const page = await this.readPage({ ...(cursor === undefined ? {} : { after: cursor }), limit }, signal);
      cursor = page.next;
      const caughtUp = page.changes.length < limit;
      if (page.changes.length > 0 || caughtUp) yield { ...page, caughtUp };
      if (caughtUp) break;
    }
    const silenceMs = options.silenceTimeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS;
    let outageStartedAt: number | undefined;
    let attempts = 0;
    for (;;) {
      signal?.throwIfAborted();
      const connection = new AbortController();
      let failure: { readonly error: PlantStoreError; readonly failure: AttemptFailure };
      try {
        const opened = await this.open(cursor, signal, connection);
        if ('response' in opened) {
          outageStartedAt = undefined;
          attempts = 0;
          for await (const next of this.changes(opened.response, signal, connection, silenceMs)) {
            cursor = next.next;
            yield next;
          }
          failure = {
            error: new PlantStoreNetworkError(`${this.stream(cursor)}: the server ended the stream`),
            failure: { kind: 'network' },
          };
        } else failure = opened;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!(error instanceof StreamCut)) throw error;
        failure = {
          error: new PlantStoreNetworkError(`${this.stream(cursor)}: ${error.message}`, { cause: error.cause }),
          failure: { kind: 'network' },
        };
      } finally {
        connection.abort();
      }
      attempts++;
      const now = this.settings.now();
      outageStartedAt ??= now;
      const waitMs = retryDelayMs(failure.failure, attempts, this.settings.retry, this.settings.random);
      if (waitMs === undefined) throw failure.error;
      const elapsedMs = now - outageStartedAt;
      if (elapsedMs + waitMs >= this.settings.defaultDeadlineMs)
        throw new PlantStoreDeadlineError(
          `${this.stream(cursor)} gave up after ${Math.round(elapsedMs)} ms and ${attempts === 1 ? '1 attempt' : `${attempts} attempts`} to open it again: the next would start past the default deadline (${this.settings.defaultDeadlineMs} ms). The last failure: ${failure.error.message}`,
          attempts,
          elapsedMs,
          { cause: failure.error },
        );
      await this.settings.sleep(waitMs, signal);
    }
  }

  /** Opens the stream after `cursor`: the response once its head has come, or the failure of the attempt. */
  private async open(
    cursor: string | undefined,
    signal: AbortSignal | undefined,
    connection: AbortController,
  ): Promise<Connection> {
    const { fetch, token, attemptTimeoutMs } = this.settings;
    const timer = setTimeout(
      () => connection.abort(new StreamCut(`no answer within ${attemptTimeoutMs} ms`)),
      attemptTimeoutMs,
    );
    let response: Response;
    try {
      response = await fetch(this.changesUrl, {
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          ...(cursor === undefined ? {} : { 'last-event-id': cursor }),
        },
        signal: signal === undefined ? connection.signal : AbortSignal.any([signal, connection.signal]),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const reason =
        connection.signal.reason instanceof StreamCut ? connection.signal.reason.message : 'the connection failed';
      return {
        error: new PlantStoreNetworkError(`${this.stream(cursor)}: ${reason}`, { cause: error }),
        failure: { kind: 'network' },
      };
    } finally {
      clearTimeout(timer);
    }
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (response.status === 200 && mediaType === 'text/event-stream' && response.body !== null) return { response };
    const text = await response.text().catch(() => '');
    if (response.status === 200)
      throw new PlantStoreUnexpectedResponseError(
        200,
        excerpt(text),
        `not a text/event-stream but ${mediaType ?? 'no media type'}`,
      );
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.settings.now());
    return {
      error: errorFrom(response.status, text, retryAfterMs),
      failure: { kind: 'status', status: response.status, retryAfterMs },
    };
  }

  /** The `change` events of an open stream, one batch each; ends when the server ends the stream, throws StreamCut when it is cut or silent. */
  private async *changes(
    response: Response,
    signal: AbortSignal | undefined,
    connection: AbortController,
    silenceMs: number,
  ): AsyncGenerator<FollowedChanges> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new ServerSentEventParser();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Anything that arrives, a keep-alive comment too, says the stream is alive.
    const listen = () => {
      timer = setTimeout(() => connection.abort(new StreamCut(`nothing came for ${silenceMs} ms`)), silenceMs);
    };
    try {
      for (;;) {
        listen();
        const chunk = await reader.read().then(
          (read) => read.value,
          (error: unknown) => {
            if (signal?.aborted) throw signal.reason;
            const reason =
              connection.signal.reason instanceof StreamCut ? connection.signal.reason.message : 'the stream was cut';
            throw new StreamCut(reason, { cause: error });
          },
        );
        clearTimeout(timer);
        if (chunk === undefined) return;
        for (const event of parser.push(chunk)) {
          if (event.event !== 'change') continue;
          yield { changes: [this.changeOf(event.data, event.lastEventId)], next: event.lastEventId, caughtUp: true };
        }
      }
    } finally {
      clearTimeout(timer);
      // The follower left, or the stream is done with: close the body (and the connection with it).
      void reader.cancel().catch(() => undefined);
    }
  }

  private changeOf(data: string, id: string) {
    if (!isCursor(id))
      throw new PlantStoreUnexpectedResponseError(
        200,
        excerpt(data),
        `an event's id is not a cursor: ${JSON.stringify(id)}`,
      );
    try {
      return readFeedEvent(data);
    } catch (error) {
      if (!(error instanceof MalformedAnswer)) throw error;
      throw new PlantStoreUnexpectedResponseError(200, excerpt(data), error.message);
    }
  }

  private stream(cursor: string | undefined): string {
    return `GET ${this.changesUrl.href} (text/event-stream${cursor === undefined ? '' : `, after ${cursor}`})`;
  }
}

/** The stream stopped bringing anything: cut, or silent past its timeout. Opened again from the last cursor. */
class StreamCut extends Error {
  override name = 'StreamCut';
}
